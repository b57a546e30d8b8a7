import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// The safety promise, end to end through the executor on a real file: refused statements change
/// nothing, byte for byte.
@Suite("SQLExecutor safety")
struct SQLExecutorSafetyTests {
    static let script = """
        CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE u(id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(id) ON DELETE CASCADE);
        INSERT INTO t(name) VALUES ('a'), ('b'), ('drop');
        INSERT INTO u(t_id) VALUES (1), (2);
        """

    static let readOnlyAttacks = [
        "/* c */ DELETE FROM t",
        "WITH x AS (SELECT 1) DELETE FROM t",
        "REPLACE INTO t VALUES (1, 'x')",
        "SELECT 1; DELETE FROM t",
        "/*'*/ DELETE FROM t; DELETE FROM u; /*'*/",
        "COMMIT; DROP TABLE t",
        "ATTACH DATABASE '/tmp/dbai-attack-x.db' AS x",
        "VACUUM INTO '/tmp/dbai-attack-y.db'",
        "PRAGMA writable_schema = ON",
        "PRAGMA journal_mode = delete",
        "SELECT load_extension('x')",
        "BEGIN",
        "ANALYZE",
        "INSERT INTO t VALUES (10, 'x') RETURNING *",
        "CREATE TEMP TABLE z(a)",
    ]

    @Test("read-only attacks are refused by query and by execute, and the file stays byte-identical",
          arguments: readOnlyAttacks)
    func readOnlyAttack(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try database.executor(.readOnly)
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.query(sql) }
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.execute(sql, confirmed: true) }
        #expect(try database.contents() == before)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/dbai-attack-x.db"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/dbai-attack-y.db"))
    }

    @Test("even unrestricted, statements that are not row reads or writes are refused",
          arguments: readOnlyAttacks.filter { !$0.contains("DELETE FROM") && !$0.hasPrefix("REPLACE") && !$0.hasPrefix("INSERT") })
    func neverAllowed(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try database.executor(.unrestricted)
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.execute(sql, confirmed: true) }
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.query(sql) }
        #expect(try database.contents() == before)
    }

    static let notesScript = """
        CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT UNIQUE);
        CREATE TABLE secrets(id INTEGER PRIMARY KEY, value TEXT UNIQUE);
        CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE audit(id INTEGER PRIMARY KEY, note_id INTEGER);
        INSERT INTO notes(body) VALUES ('first');
        INSERT INTO secrets(value) VALUES ('s3cr3t');
        INSERT INTO users(name) VALUES ('ada');
        """
    static let leakTrigger = """
        CREATE TRIGGER notes_leak AFTER INSERT ON notes WHEN NEW.body = 'leak'
        BEGIN INSERT INTO secrets(value) VALUES ('leaked'); END;
        """

    @Test("a policy that allows INSERT/UPDATE on notes only refuses every other write", arguments: [
        "INSERT OR REPLACE INTO secrets(id, value) VALUES (1, 'x')",
        "UPDATE notes SET body = 'a' /*'*/; DELETE FROM users; /*'*/",
        "INSERT INTO secrets(value) VALUES ('s3cr3t') ON CONFLICT(value) DO UPDATE SET value = 'y'",
        "INSERT INTO notes(body) VALUES ('leak')",
        "INSERT OR REPLACE INTO notes(id, body) VALUES (1, 'x')",
        "DELETE FROM notes",
        "UPDATE users SET name = 'eve'",
    ])
    func notesOnly(sql: String) async throws {
        let database = try ScratchDatabase(Self.notesScript + Self.leakTrigger)
        let before = try database.contents()
        let executor = try database.executor(
            .unrestricted, mutationPolicy: MutationPolicy(tableRules: ["notes": [.insert, .update]]))
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.execute(sql, confirmed: true) }
        #expect(try database.contents() == before)
        #expect(try database.scalar("SELECT count(*) FROM secrets", as: Int.self) == 1)
    }

    @Test("the same policy allows a plain insert and update on notes")
    func notesAllowed() async throws {
        let database = try ScratchDatabase(Self.notesScript)
        let executor = try database.executor(
            .standard, mutationPolicy: MutationPolicy(tableRules: ["notes": [.insert, .update]]))
        let inserted = try await executor.execute("INSERT INTO notes(body) VALUES (?)", arguments: ["second"])
        #expect(inserted.rowsAffected == 1)
        #expect(inserted.lastInsertRowID == 2)
        let updated = try await executor.execute("UPDATE notes SET body = upper(body)")
        #expect(updated.rowsAffected == 2)
        #expect(try database.scalar("SELECT group_concat(body, ',') FROM notes", as: String.self) == "FIRST,SECOND")
    }

    @Test("a failed batch leaves the database exactly as it was")
    func failedBatchRollsBack() async throws {
        let database = try ScratchDatabase("CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL);")
        let before = try database.contents()
        let executor = try database.executor(.standard)
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.insert(into: "items", rows: [["name": "ok"], ["name": nil]])
        }
        #expect(try database.contents() == before)
        #expect(try database.scalar("SELECT count(*) FROM items", as: Int.self) == 0)
    }

    @Test("no false positives: keywords inside strings and names, pragma functions, CTEs and views", arguments: [
        "SELECT * FROM t WHERE name = 'drop'",
        "SELECT create_date FROM events",
        "SELECT * FROM pragma_table_info('t')",
        "WITH x AS (SELECT id FROM t) SELECT * FROM x",
        "SELECT * FROM t_names",
        "SELECT 'DELETE FROM t; DROP TABLE t' AS text",
    ])
    func allowedReads(sql: String) async throws {
        let database = try ScratchDatabase(Self.script + """
            CREATE TABLE events(id INTEGER PRIMARY KEY, create_date TEXT);
            CREATE VIEW t_names AS SELECT name FROM t;
            """)
        let executor = try database.executor(.readOnly)
        let result = try await executor.query(sql)
        #expect(!result.columns.isEmpty)
    }

    @Test("a hidden table cannot be read directly, through a view, a subquery, a CTE or the schema table", arguments: [
        "SELECT * FROM b",
        "SELECT * FROM b_view",
        "SELECT (SELECT secret FROM b LIMIT 1) FROM a",
        "WITH x AS (SELECT * FROM b) SELECT * FROM x",
        "SELECT * FROM a WHERE id IN (SELECT id FROM b)",
        "SELECT * FROM pragma_table_info('b')",
        "SELECT sql FROM sqlite_schema",
    ])
    func hiddenTable(sql: String) async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE b(id INTEGER PRIMARY KEY, secret TEXT);
            CREATE VIEW b_view AS SELECT secret FROM b;
            INSERT INTO a(name) VALUES ('visible'); INSERT INTO b(secret) VALUES ('hidden');
            """)
        let executor = try database.executor(.readOnly, validators: [TableAllowlistValidator(["a"])])
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.query(sql) }
        #expect(try await executor.query("SELECT name FROM a").rows == [["visible"]])
        #expect(try await executor.schema().tableNames == ["a"])
        let description = try await executor.schemaDescription()
        #expect(!description.contains("secret"))
    }

    @Test("the transaction guard rolls back a trigger's write that the policy forbids, whatever the classifier said")
    func guardRollsBack() async throws {
        let database = try ScratchDatabase(Self.notesScript + Self.leakTrigger)
        let before = try database.contents()
        let queue = try DatabaseQueue(path: database.path)
        let schema = try await SchemaIntrospector().introspect(queue)
        let policy = SafetyPolicy(allowlist: .standard, mutationPolicy: MutationPolicy(tableRules: ["notes": [.insert]]))
        let mutationGuard = MutationGuard(policy: policy, schema: schema)
        #expect(throws: SQLRejection.self) {
            try queue.writeWithoutTransaction { db in
                db.add(transactionObserver: mutationGuard, extent: .observerLifetime)
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO notes(body) VALUES ('leak')")
                    return .commit
                }
            }
        }
        try queue.close()
        #expect(try database.contents() == before)
        #expect(mutationGuard.violation?.code == .writeNotAllowed)
    }
}
