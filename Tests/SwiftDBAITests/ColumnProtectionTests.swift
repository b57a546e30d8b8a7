import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// Masked columns read as NULL (in results, conditions, functions, views, CTEs), hidden columns
/// are absent, and nothing derived from either gives a value away.
@Suite("Masked and hidden columns")
struct ColumnProtectionTests {
    static let script = """
        CREATE TABLE people(
            id INTEGER PRIMARY KEY, name TEXT, email TEXT UNIQUE, ssn TEXT,
            email_domain TEXT GENERATED ALWAYS AS (substr(email, instr(email, '@') + 1)) VIRTUAL);
        CREATE INDEX people_ssn_idx ON people(ssn);
        CREATE TABLE orders(id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES people(id), note TEXT);
        CREATE VIEW people_view AS SELECT id, name, email FROM people;
        CREATE VIEW people_ssn AS SELECT name, ssn FROM people;
        CREATE VIRTUAL TABLE people_fts USING fts5(name, email, content='people', content_rowid='id');
        INSERT INTO people(id, name, email, ssn) VALUES (1, 'Ann', 'ann@secret.example', '111-22-3333');
        INSERT INTO people(id, name, email, ssn) VALUES (2, 'Bob', 'bob@hidden.example', '444-55-6666');
        INSERT INTO people_fts(rowid, name, email) SELECT id, name, email FROM people;
        INSERT INTO orders VALUES (1, 1, 'first');
        """

    /// Values that must never come out of a protected executor.
    static let secrets = ["ann@", "secret.example", "hidden.example", "111-22", "444-55", "3333", "6666"]

    static let protection = ColumnProtection(masked: ["people": ["email"]], hidden: ["People": ["SSN"]])

    func executor(_ database: ScratchDatabase, _ allowlist: OperationAllowlist = .readOnly) throws -> SQLExecutor {
        try SQLExecutor(path: database.path, policy: SafetyPolicy(allowlist: allowlist, columnProtection: Self.protection))
    }

    static func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            #expect(!text.contains(secret), "leaked \(secret) in \(text)", sourceLocation: sourceLocation)
        }
    }

    static func text(_ result: QueryResult) -> String {
        result.columns.map(\.name).joined(separator: ",") + "\n" + result.rows.map { row in row.map { "\($0)" }.joined(separator: ",") }.joined(separator: "\n")
    }

    @Test("reads through every path see NULL for a masked column and never a value", arguments: [
        "SELECT * FROM people",
        "SELECT email FROM people",
        "SELECT * FROM people_view",
        "WITH c AS (SELECT email FROM people) SELECT * FROM c",
        "SELECT (SELECT email FROM people WHERE id = 1)",
        "SELECT p.* FROM (SELECT * FROM people) p",
        "SELECT * FROM people UNION ALL SELECT * FROM people",
        "SELECT json_group_array(email) FROM people",
        "SELECT group_concat(email, ';') FROM people",
        "SELECT printf('%s|%s', name, email) FROM people",
        "SELECT json_object('e', email), upper(email), length(email), typeof(email), hex(email) FROM people",
        "SELECT value FROM people, json_each(json_array(people.email))",
        "SELECT name, email FROM people ORDER BY email",
    ])
    func maskedReads(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let result = try await executor(database).query(sql)
        #expect(!result.rows.isEmpty)
        Self.expectNoSecret(Self.text(result))
        #expect(!result.columns.contains { $0.name.lowercased() == "ssn" })
    }

    @Test("a masked column is no oracle: conditions on it match nothing", arguments: [
        "SELECT name FROM people WHERE email LIKE 'ann%'",
        "SELECT name FROM people WHERE email = 'ann@secret.example'",
        "SELECT name FROM people WHERE email IS NOT NULL",
        "SELECT name FROM people WHERE instr(email, '@') > 0",
        "SELECT name FROM people_view WHERE email GLOB '*secret*'",
    ])
    func noOracle(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let result = try await executor(database).query(sql)
        #expect(result.rows.isEmpty)
    }

    @Test("a hidden column, the view that reads it and the full-text index over a protected column are unknown", arguments: [
        "SELECT ssn FROM people",
        "SELECT email_domain FROM people",
        "SELECT name FROM people WHERE email_domain = 'secret.example'",
        "SELECT name FROM people WHERE ssn LIKE '111%'",
        "SELECT * FROM people_ssn",
        "SELECT * FROM people INDEXED BY people_ssn_idx",
        "SELECT * FROM people_fts WHERE people_fts MATCH 'secret'",
        "SELECT * FROM people_fts_data",
        "SELECT * FROM people_fts_idx",
        "SELECT sql FROM sqlite_schema",
        "PRAGMA table_info(people)",
        "SELECT * FROM pragma_table_info('people')",
    ])
    func hiddenRefused(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query(sql) }
        Self.expectNoSecret(error?.description ?? "")
    }

    @Test("with dbai:unmask a masked column reads in the clear; a hidden one stays hidden")
    func revealed() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database).revealingMaskedColumns()
        let result = try await executor.query("SELECT * FROM people ORDER BY id")
        // A generated column of a table with a hidden column is hidden too (it may be computed from it).
        #expect(result.columns.map(\.name) == ["id", "name", "email"])
        #expect(result.rows[0][2] == .text("ann@secret.example"))
        #expect(try await executor.query("SELECT name FROM people WHERE email LIKE 'ann%'").rows.count == 1)
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT ssn FROM people") }
        // The masked executor sharing the same connections is still masked afterwards.
        let masked = try await self.executor(database).query("SELECT email FROM people")
        #expect(masked.rows.allSatisfy { $0 == [.null] })
    }

    @Test("a write may not read a masked column unless it is revealed, nor a hidden one", arguments: [
        "UPDATE people SET name = 'x' WHERE email LIKE 'ann%'",
        "DELETE FROM people WHERE email = 'ann@secret.example'",
        "INSERT INTO orders(person_id, note) SELECT id, email FROM people",
        "UPDATE orders SET note = (SELECT email FROM people WHERE id = 1)",
        "UPDATE people SET name = email_domain",
        "INSERT INTO orders(person_id, note) SELECT id, name FROM people WHERE ssn > ''",
    ])
    func writesReadingMasked(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try executor(database, .unrestricted)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute(sql, confirmed: true) }
        #expect(error != nil)
        Self.expectNoSecret(error?.description ?? "")
        #expect(try database.contents() == before)
    }

    @Test("a write may set a masked column, but not a unique one without dbai:unmask (a refused duplicate would tell)")
    func writesSettingMasked() async throws {
        let database = try ScratchDatabase(Self.script)
        let policy = SafetyPolicy(
            allowlist: .unrestricted,
            columnProtection: ColumnProtection(masked: ["people": ["email", "name"]], hidden: ["people": ["ssn"]]))
        let executor = try SQLExecutor(path: database.path, policy: policy)
        _ = try await executor.execute("UPDATE people SET name = 'Annie' WHERE id = 1")
        #expect(try database.scalar("SELECT name FROM people WHERE id = 1", as: String.self) == "Annie")
        _ = try await executor.execute("INSERT INTO orders(person_id, note) VALUES (2, 'second')")
        for sql in [
            "INSERT INTO people(name, email) VALUES ('Cy', 'ann@secret.example')",
            "INSERT OR IGNORE INTO people(name, email) VALUES ('Cy', 'ann@secret.example')",
            "UPDATE people SET email = 'ann@secret.example' WHERE id = 2",
        ] {
            let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute(sql) }
            #expect(error?.code.rawValue == "column_not_allowed", "\(sql): \(String(describing: error))")
        }
        #expect(try database.scalar("SELECT count(*) FROM people", as: Int.self) == 2)
        let revealed = executor.revealingMaskedColumns()
        _ = try await revealed.execute("INSERT INTO people(name, email) VALUES ('Cy', 'cy@new.example')")
        let outcome = try await revealed.execute("UPDATE people SET email = 'ann@new.example' WHERE email LIKE 'ann%'")
        #expect(outcome.rowsAffected == 1)
    }

    @Test("the preview of a write shows a masked column as NULL and no hidden column")
    func preview() async throws {
        let database = try ScratchDatabase(Self.script)
        let preview = try await executor(database, .unrestricted).preview([BoundStatement(sql: "DELETE FROM people WHERE id = 2")])
        let rows = try #require(preview.affectedRows)
        #expect(rows.columns.map(\.name) == ["id", "name", "email"])
        #expect(rows.rows == [[.integer(2), .text("Bob"), .null]])
        Self.expectNoSecret(Self.text(rows))
        let revealed = try await executor(database, .unrestricted).revealingMaskedColumns()
            .preview([BoundStatement(sql: "DELETE FROM people WHERE id = 2")])
        #expect(revealed.affectedRows.map(Self.text)?.contains("bob@hidden.example") == true)
    }

    @Test("exports leave out hidden columns and write masked ones as empty")
    func export() async throws {
        let database = try ScratchDatabase(Self.script)
        let path = database.folder.appendingPathComponent("export.csv").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        defer { close(descriptor) }
        let summary = try await executor(database).export("SELECT * FROM people", format: .csv, to: descriptor, chunkBytes: 1 << 20)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(summary.rowCount == 2)
        #expect(text.hasPrefix("id,name,email\r\n"))
        Self.expectNoSecret(text)
    }

    @Test("the schema lists masked columns as masked, not hidden columns nor what would show them; prompts hold no value")
    func schema() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        let schema = try await executor.schema()
        let people = try #require(schema.table(named: "people"))
        #expect(people.columns.map(\.name) == ["id", "name", "email"])
        #expect(people.columns.filter(\.isMasked).map(\.name) == ["email"])
        #expect(!people.sql.lowercased().contains("ssn"))
        #expect(!people.indexes.contains { $0.name == "people_ssn_idx" })
        #expect(schema.table(named: "people_ssn") == nil)
        #expect(schema.table(named: "people_fts") == nil)
        #expect(schema.table(named: "people_view") != nil)
        let prompt = try await executor.schemaDescription(sampleRowCount: 3)
        #expect(!prompt.lowercased().contains("ssn"))
        #expect(prompt.contains("masked"))
        Self.expectNoSecret(prompt)
        #expect(try await executor.findValues(["ann@secret.example", "111-22-3333"], in: schema).isEmpty)
        let profiles = try await executor.columnProfiles(in: schema)
        #expect(!profiles.contains { $0.column == "email" || $0.column.lowercased() == "ssn" })
    }

    @Test("only masked columns: PRAGMA table_info lists the column, never a value; generated columns are masked too")
    func pragmaWithMasksOnly() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try SQLExecutor(
            path: database.path, policy: SafetyPolicy(columnProtection: ColumnProtection(masked: ["people": ["email", "ssn"]])))
        let result = try await executor.query("PRAGMA table_info(people)")
        #expect(result.rows.contains { $0.contains(.text("email")) })
        let all = try await executor.query("SELECT * FROM people")
        #expect(all.columns.map(\.name) == ["id", "name", "email", "ssn", "email_domain"])
        Self.expectNoSecret(Self.text(all))
        #expect(try await executor.query("SELECT name FROM people WHERE email_domain = 'secret.example'").rows.isEmpty)
        let schema = try await executor.schema()
        #expect(schema.table(named: "people")?.columns.filter(\.isMasked).map(\.name) == ["email", "ssn", "email_domain"])
    }

    @Test("without a database file (no reading connection of their own), protected reads refuse to run")
    func noFile() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t(a, secret); INSERT INTO t VALUES (1, 'x')") }
        let executor = try SQLExecutor(database: queue, policy: SafetyPolicy(columnProtection: ColumnProtection(masked: ["t": ["secret"]])))
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT secret FROM t") }
    }
}
