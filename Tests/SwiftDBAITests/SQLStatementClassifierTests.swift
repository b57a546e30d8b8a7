import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLStatementClassifier")
struct SQLStatementClassifierTests {
    /// A statement and the rejection expected for it.
    struct Rejection: Sendable, CustomTestStringConvertible {
        var sql: String
        var code: SQLRejection.Code
        init(_ sql: String, _ code: SQLRejection.Code) {
            self.sql = sql
            self.code = code
        }
        var testDescription: String { sql }
    }

    /// Classifies then authorizes; returns the rejection, or nil when the statement may run.
    static func rejection(
        of sql: String, by classifier: SQLStatementClassifier, under policy: SafetyPolicy
    ) -> SQLRejection? {
        do {
            try policy.authorize(try classifier.classify(sql))
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Bypass attempts under the read-only policy

    static let readOnlySchema = """
        CREATE TABLE t(a);
        CREATE TABLE u(a);
        """

    /// `{attach}` and `{vacuum}` are replaced by unique temporary paths.
    static let readOnlyRejections: [Rejection] = [
        Rejection("/* c */ DELETE FROM t", .operationNotAllowed),
        Rejection("WITH x AS (SELECT 1) DELETE FROM t", .operationNotAllowed),
        Rejection("REPLACE INTO t VALUES (1)", .operationNotAllowed),
        Rejection("SELECT 1; DELETE FROM t", .multipleStatements),
        Rejection("SELECT 1;; DELETE FROM t", .multipleStatements),
        Rejection("SELECT 1; /* ; */ DELETE FROM t", .multipleStatements),
        Rejection("/*'*/ DELETE FROM t; DELETE FROM u; /*'*/", .multipleStatements),
        Rejection("SELECT 1; SELECT * FROM nowhere", .multipleStatements),
        Rejection("COMMIT; DROP TABLE t", .multipleStatements),
        Rejection("ATTACH DATABASE '{attach}' AS x", .attachedDatabase),
        Rejection("VACUUM INTO '{vacuum}'", .unsupportedStatement),
        Rejection("VACUUM", .unsupportedStatement),
        Rejection("PRAGMA writable_schema = ON", .pragmaNotAllowed),
        Rejection("PRAGMA journal_mode = delete", .pragmaNotAllowed),
        Rejection("PRAGMA main.user_version = 3", .pragmaNotAllowed),
        Rejection("PRAGMA optimize", .pragmaNotAllowed),
        Rejection("SELECT * FROM pragma_optimize", .pragmaNotAllowed),
        Rejection("SELECT load_extension('x')", .functionNotAllowed),
        Rejection("SELECT fts3_tokenizer('simple')", .functionNotAllowed),
        Rejection("BEGIN", .transactionControl),
        Rejection("COMMIT", .transactionControl),
        Rejection("SAVEPOINT s", .transactionControl),
        Rejection("ANALYZE", .unsupportedStatement),  // named as such, although it would create sqlite_stat1
        Rejection("ANALYZE t", .unsupportedStatement),
        Rejection("REINDEX", .unsupportedStatement),
        Rejection("UPDATE t SET name = 'x'\u{0} WHERE id = 5", .nulCharacter),
        Rejection("SELECT 1\u{0}; DELETE FROM t", .nulCharacter),
        Rejection("PRAGMA table_info(missing_table)", .invalidSQL),
        Rejection("INSERT INTO t VALUES (1) RETURNING *", .operationNotAllowed),
        Rejection("CREATE TEMP TABLE z(a)", .schemaChange),
        Rejection("CREATE TABLE z(a)", .schemaChange),
        Rejection("DROP TABLE t", .schemaChange),
        Rejection("ALTER TABLE t ADD COLUMN b", .schemaChange),
        Rejection("EXPLAIN DELETE FROM t", .unsupportedStatement),
        Rejection("SELECT * FROM temp.sqlite_master", .attachedDatabase),
        Rejection("SELECT * FROM dbstat", .tableNotAllowed),
        Rejection("", .emptyStatement),
        Rejection("  -- only a comment", .emptyStatement),
        Rejection("SELEC 1", .invalidSQL),
        Rejection("SELECT * FROM nowhere", .invalidSQL),
    ]

    @Test("read-only policy refuses writes, bypass attempts and everything that is not a read",
          arguments: readOnlyRejections)
    func readOnlyRejects(_ example: Rejection) async throws {
        let classifier = try await TestDatabase.classifier(Self.readOnlySchema)
        let attachPath = TestDatabase.unusedTemporaryPath("attach.db")
        let vacuumPath = TestDatabase.unusedTemporaryPath("vacuum.db")
        let sql = example.sql
            .replacingOccurrences(of: "{attach}", with: attachPath)
            .replacingOccurrences(of: "{vacuum}", with: vacuumPath)

        let rejection = Self.rejection(of: sql, by: classifier, under: SafetyPolicy(allowlist: .readOnly))
        #expect(rejection?.code == example.code)
        #expect(rejection?.message.isEmpty == false)
        #expect(!FileManager.default.fileExists(atPath: attachPath))
        #expect(!FileManager.default.fileExists(atPath: vacuumPath))
    }

    @Test("rejections that no policy can lift are thrown by the classifier itself")
    func classifierRejects() async throws {
        let classifier = try await TestDatabase.classifier(Self.readOnlySchema)
        for sql in ["SELECT 1; DELETE FROM t", "BEGIN", "PRAGMA journal_mode = wal", "SELECT load_extension('x')"] {
            #expect(throws: SQLRejection.self, "\(sql)") { try classifier.classify(sql) }
        }
    }

    // MARK: - No false positives

    static let readSchema = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, create_date TEXT);
        CREATE TABLE other(id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(id));
        CREATE VIEW t_view AS SELECT id, name FROM t;
        """

    static let readExamples: [(sql: String, tablesRead: Set<String>)] = [
        ("SELECT * FROM t WHERE name = 'drop'", ["t"]),
        ("SELECT 'DELETE FROM t; DROP TABLE t' AS text, \"create_date\" FROM t", ["t"]),
        ("SELECT create_date FROM t ORDER BY create_date", ["t"]),
        ("select count(*) from T", ["t"]),
        ("WITH recent AS (SELECT * FROM t WHERE id > 1) SELECT name FROM recent", ["t"]),
        ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n", []),
        ("SELECT * FROM t_view", ["t", "t_view"]),
        ("SELECT * FROM other WHERE t_id IN (SELECT id FROM t)", ["other", "t"]),
        ("EXPLAIN QUERY PLAN SELECT * FROM t WHERE name = 'x'", ["t"]),
        ("EXPLAIN SELECT * FROM t_view", ["t", "t_view"]),
        ("PRAGMA table_info(t)", ["t"]),
        ("PRAGMA index_list('other')", ["other"]),
        ("PRAGMA user_version", []),
        ("SELECT * FROM json_each('[1, 2]')", []),
        ("SELECT 1", []),
        ("  SELECT 1 ; -- trailing comment", []),
        ("SELECT 1; /* trailing ; comment */ ;", []),
    ]

    @Test("ordinary reads are classified as select with the tables they read", arguments: readExamples)
    func reads(sql: String, tablesRead: Set<String>) async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        let statement = try classifier.classify(sql)
        #expect(statement.operation == .select)
        #expect(statement.tablesRead == tablesRead)
        #expect(statement.tablesWritten.isEmpty)
        #expect(statement.isReadOnly)
        #expect(statement.columnCount > 0)
        #expect(!statement.isDestructive)
        try SafetyPolicy(allowlist: .readOnly).authorize(statement)
    }

    @Test("a read classifies the same on first and later uses of an eponymous virtual table")
    func eponymousTablesAreStable() async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        for sql in ["SELECT * FROM json_each('[1]')", "SELECT * FROM pragma_table_info('t')"] {
            let first = try classifier.classify(sql)
            let second = try classifier.classify(sql)
            #expect(first == second, "\(sql)")
            #expect(!first.tablesRead.contains("sqlite_schema"), "\(sql)")
        }
    }

    @Test("a statement classifies the same the first time and every later time", arguments: readExamples.map(\.sql) + [
        "PRAGMA table_list(t)",
        "PRAGMA table_list",
        "SELECT * FROM pragma_index_list('t')",
        "INSERT INTO t(name) SELECT name FROM t_view",
        "DELETE FROM t WHERE id IN (SELECT t_id FROM other)",
    ])
    func stableClassification(sql: String) async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        let first = try classifier.classify(sql)
        let second = try classifier.classify(sql)
        #expect(first == second)
    }

    @Test("a table-valued PRAGMA function counts as reading every table: its argument is known only at run time")
    func tableValuedPragma() async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        let everyTable = Set(classifier.schema.tableNames)
        for sql in [
            "SELECT * FROM pragma_table_info('t')",
            "SELECT * FROM pragma_table_info(?)",
            "SELECT p.name FROM t, pragma_table_info(t.name) p",
            "SELECT * FROM pragma_table_list",
            "PRAGMA table_list",
            "PRAGMA foreign_key_check",
            "PRAGMA integrity_check(10)",
        ] {
            let statement = try classifier.classify(sql)
            #expect(statement.operation == .select, "\(sql)")
            #expect(statement.tablesRead == everyTable, "\(sql)")
        }
    }

    @Test("a PRAGMA that names an index or a table counts as reading that table", arguments: [
        ("PRAGMA index_info(t_name)", ["t"]),
        ("PRAGMA index_xinfo('T_NAME')", ["t"]),
        ("PRAGMA table_xinfo(t_view)", ["t_view"]),
        ("PRAGMA foreign_key_list(other)", ["other"]),
        ("PRAGMA foreign_key_check(other)", ["other"]),
        ("PRAGMA table_list(t_view)", ["t_view"]),
        ("PRAGMA main.table_info(t)", ["t"]),
    ] as [(String, Set<String>)])
    func pragmaTables(sql: String, tablesRead: Set<String>) async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema + "CREATE INDEX t_name ON t(name);")
        let statement = try classifier.classify(sql)
        #expect(statement.operation == .select)
        #expect(statement.tablesRead == tablesRead)
    }

    @Test("table-valued PRAGMA functions other than introspection and readable settings are refused", arguments: [
        "SELECT * FROM pragma_optimize",
        "SELECT * FROM pragma_writable_schema",
        "SELECT * FROM pragma_hard_heap_limit",
    ])
    func otherPragmaFunctions(sql: String) async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        #expect {
            try classifier.classify(sql)
        } throws: { error in
            (error as? SQLRejection)?.code == .pragmaNotAllowed
        }
    }

    @Test("reading sqlite_schema is reported as such")
    func schemaTableRead() async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        #expect(try classifier.classify("SELECT name FROM sqlite_schema").tablesRead == ["sqlite_schema"])
        #expect(try classifier.classify("SELECT name FROM sqlite_master").tablesRead == ["sqlite_schema"])
    }

    // MARK: - Writes

    static let writeSchema = """
        CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE);
        CREATE TABLE orphan(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent ON DELETE SET NULL);
        CREATE TABLE audit(message TEXT);
        CREATE TRIGGER parent_deleted AFTER DELETE ON parent BEGIN
            INSERT INTO audit VALUES ('deleted ' || old.name);
        END;
        """

    @Test("DELETE: operation, destructiveness, and writes made by foreign-key actions and triggers")
    func deleteWithCascadeAndTrigger() async throws {
        let classifier = try await TestDatabase.classifier(Self.writeSchema)
        let statement = try classifier.classify("DELETE FROM parent WHERE id = 1")
        #expect(statement.operation == .delete)
        #expect(statement.isDestructive)
        #expect(!statement.isReadOnly)
        #expect(statement.columnCount == 0)
        #expect(statement.tablesWritten == [
            "parent": [.delete],
            "child": [.delete],
            "orphan": [.update],
            "audit": [.insert],
        ])
        #expect(statement.writeOperations == [.delete, .update, .insert])
        #expect(statement.tablesTouched.contains("child"))
    }

    @Test("a DELETE on a table without dependents writes only that table")
    func plainDelete() async throws {
        let classifier = try await TestDatabase.classifier(Self.writeSchema)
        let statement = try classifier.classify("WITH doomed AS (SELECT id FROM child) DELETE FROM child WHERE id IN (SELECT id FROM doomed)")
        #expect(statement.operation == .delete)
        #expect(statement.tablesWritten == ["child": [.delete]])
        #expect(statement.tablesRead.contains("child"))
    }

    @Test("INSERT and UPDATE are classified by their own operation, not as destructive")
    func insertAndUpdate() async throws {
        let classifier = try await TestDatabase.classifier(Self.writeSchema)
        let insert = try classifier.classify("INSERT INTO parent(name) VALUES ('a')")
        #expect(insert.operation == .insert)
        #expect(insert.tablesWritten == ["parent": [.insert]])
        #expect(!insert.isDestructive)

        let update = try classifier.classify("UPDATE parent SET name = 'b' WHERE id = 1")
        #expect(update.operation == .update)
        #expect(update.tablesWritten == ["parent": [.update]])
        #expect(!update.isDestructive)

        let returning = try classifier.classify("INSERT INTO audit VALUES ('x') RETURNING message")
        #expect(returning.operation == .insert)
        #expect(returning.columnCount == 1)
    }

    @Test("REPLACE and INSERT OR REPLACE may delete the conflicting row")
    func replaceIsDestructive() async throws {
        let classifier = try await TestDatabase.classifier("""
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT UNIQUE);
            """)
        for sql in [
            "INSERT OR REPLACE INTO notes(body) VALUES ('x')",
            "REPLACE INTO notes(id, body) VALUES (1, 'x')",
            "UPDATE OR REPLACE notes SET body = 'x' WHERE id = 2",
        ] {
            let statement = try classifier.classify(sql)
            #expect(statement.operation != .delete, "\(sql)")
            #expect(statement.tablesWritten["notes"]?.contains(.delete) == true, "\(sql)")
            #expect(statement.isDestructive, "\(sql)")
        }
        let upsert = try classifier.classify(
            "INSERT INTO notes(body) VALUES ('x') ON CONFLICT(body) DO UPDATE SET body = excluded.body || '!'")
        #expect(upsert.operation == .insert)
        #expect(upsert.tablesWritten == ["notes": [.insert, .update]])
        #expect(!upsert.isDestructive)
    }

    @Test("a REPLACE made by a trigger may delete rows of the table it writes")
    func replaceInTrigger() async throws {
        let classifier = try await TestDatabase.classifier("""
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
            CREATE TABLE latest(body TEXT UNIQUE);
            CREATE TRIGGER notes_latest AFTER INSERT ON notes BEGIN
                INSERT OR REPLACE INTO latest(body) VALUES (new.body);
            END;
            """)
        let statement = try classifier.classify("INSERT INTO notes(body) VALUES ('x')")
        #expect(statement.operation == .insert)
        #expect(statement.tablesWritten == ["notes": [.insert], "latest": [.insert, .delete]])
        #expect(statement.isDestructive)
    }

    @Test("writes to an FTS5 table and its shadow tables are attributed to the virtual table")
    func virtualTableWrites() async throws {
        let classifier = try await TestDatabase.classifier("""
            CREATE VIRTUAL TABLE docs USING fts5(title, body);
            """)
        let insert = try classifier.classify("INSERT INTO docs(title, body) VALUES ('a', 'b')")
        #expect(insert.operation == .insert)
        #expect(Set(insert.tablesWritten.keys) == ["docs"])
        let match = try classifier.classify("SELECT title FROM docs WHERE docs MATCH 'b'")
        #expect(match.operation == .select)
        #expect(match.tablesRead == ["docs"])
        #expect(try classifier.classify("SELECT * FROM docs_data").tablesRead == ["docs"])
    }

    @Test("names with quotes, brackets and non-ASCII characters resolve to their canonical name")
    func unusualNames() async throws {
        let table = "we\"ird [name] é"
        let classifier = try await TestDatabase.classifier("CREATE TABLE \(SQLIdentifier.quote(table))(\"co\"\"l\" TEXT)")
        let read = try classifier.classify("SELECT \"co\"\"l\" FROM \(SQLIdentifier.quote(table))")
        #expect(read.tablesRead == [table])
        let insert = try classifier.classify("INSERT INTO \"WE\"\"IRD [NAME] é\" VALUES (?)")
        #expect(insert.tablesWritten == [table: [.insert]])
    }

    // MARK: - Parameters

    static let parameterCases: [(sql: String, count: Int, names: [String?])] = [
        ("SELECT * FROM t WHERE id = ? AND name = ?", 2, [nil, nil]),
        ("SELECT * FROM t WHERE id = :id AND name = @name OR create_date = $date", 3, [":id", "@name", "$date"]),
        ("SELECT * FROM t WHERE id = :id OR t.id = :id", 1, [":id"]),
        ("SELECT * FROM t WHERE id = ? AND name = :name", 2, [nil, ":name"]),
        ("SELECT * FROM t WHERE id = ?3", 3, [nil, nil, "?3"]),
        ("SELECT * FROM t", 0, []),
    ]

    @Test("named and positional parameters are counted", arguments: parameterCases)
    func parameters(sql: String, count: Int, names: [String?]) async throws {
        let classifier = try await TestDatabase.classifier(Self.readSchema)
        let statement = try classifier.classify(sql)
        #expect(statement.parameterCount == count)
        #expect(statement.parameterNames == names)
    }
}
