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
        CREATE INDEX people_email_idx ON people(email);
        CREATE TABLE orders(id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES people(id), note TEXT);
        CREATE TABLE log(value TEXT);
        CREATE TRIGGER orders_log AFTER UPDATE ON orders BEGIN
            INSERT INTO log SELECT email FROM people WHERE id = NEW.person_id;
        END;
        CREATE VIEW people_view AS SELECT id, name, email FROM people;
        CREATE VIEW people_ssn AS SELECT name, ssn FROM people;
        CREATE VIRTUAL TABLE people_fts USING fts5(name, email, content='people', content_rowid='id');
        CREATE VIRTUAL TABLE mail_fts USING fts5(mail, content='people_view');
        CREATE VIRTUAL TABLE loose_fts USING fts5(words, content='');
        INSERT INTO people(id, name, email, ssn) VALUES (1, 'Ann', 'zz-ann@secret.example', '999-22-3333');
        INSERT INTO people(id, name, email, ssn) VALUES (2, 'Bob', 'aa-bob@hidden.example', '111-55-6666');
        INSERT INTO people(id, name, email, ssn) VALUES (3, 'Cy', 'mm-cy@secret.example', '555-00-0000');
        INSERT INTO people_fts(rowid, name, email) SELECT id, name, email FROM people;
        INSERT INTO loose_fts(rowid, words) SELECT id, email FROM people;
        INSERT INTO orders VALUES (1, 1, 'first');
        """

    /// Values that must never come out of a protected executor (ids, emails and ssns are in
    /// three different orders, so that an order that follows a protected column shows too).
    static let secrets = ["zz-ann", "aa-bob", "mm-cy", "secret.example", "hidden.example", "999-22", "111-55", "555-00"]

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
        "WITH RECURSIVE r AS (SELECT * FROM people UNION ALL SELECT * FROM r WHERE 0) SELECT * FROM r",
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
        "SELECT name FROM people WHERE email LIKE 'zz-ann%'",
        "SELECT name FROM people WHERE email = 'zz-ann@secret.example'",
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
        "SELECT name FROM people WHERE ssn LIKE '999%'",
        "SELECT * FROM people_ssn",
        "SELECT * FROM people INDEXED BY people_ssn_idx",
        "SELECT * FROM people_fts WHERE people_fts MATCH 'secret'",
        "SELECT * FROM people_fts_data",
        "SELECT * FROM people_fts_idx",
        "SELECT * FROM mail_fts WHERE mail_fts MATCH 'secret'",
        "SELECT * FROM loose_fts",
        "SELECT * FROM people INDEXED BY people_email_idx",
        "SELECT * FROM people INDEXED BY sqlite_autoindex_people_1",
        "SELECT * FROM sqlite_stat1",
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
        #expect(result.rows[0][2] == .text("zz-ann@secret.example"))
        #expect(try await executor.query("SELECT name FROM people WHERE email LIKE 'zz-ann%'").rows.count == 1)
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT ssn FROM people") }
        // The masked executor sharing the same connections is still masked afterwards.
        let masked = try await self.executor(database).query("SELECT email FROM people")
        #expect(masked.rows.count == 3 && masked.rows.allSatisfy { $0 == [.null] })
    }

    @Test("without dbai:unmask, no write reads a masked column (its own or its triggers') nor touches a protected table", arguments: [
        "UPDATE people SET name = 'x' WHERE email LIKE 'zz%'",
        "UPDATE people SET name = 'x' WHERE id = 1",
        "INSERT INTO people(name, email) VALUES ('Dee', 'zz-ann@secret.example')",
        "DELETE FROM people WHERE id = 2",
        "INSERT INTO orders(person_id, note) SELECT id, email FROM people",
        "UPDATE orders SET note = (SELECT email FROM people WHERE id = 1)",
        "UPDATE orders SET note = 'second' WHERE id = 1",
        "INSERT INTO orders(person_id, note) SELECT id, name FROM people WHERE ssn > ''",
    ])
    func writesRefused(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try executor(database, .unrestricted)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute(sql, confirmed: true) }
        #expect(error != nil)
        Self.expectNoSecret(error?.description ?? "")
        if !sql.contains("ssn") { #expect(!String(describing: error).lowercased().contains("ssn")) }
        #expect(try database.contents() == before)
    }

    @Test("with dbai:unmask, a table with masked columns (and none hidden) is written, triggers reading them included; one with a hidden column never")
    func writesRevealed() async throws {
        let database = try ScratchDatabase(Self.script)
        let masked = try SQLExecutor(
            path: database.path,
            policy: SafetyPolicy(allowlist: .unrestricted, columnProtection: ColumnProtection(masked: ["people": ["email"]])))
        let revealed = masked.revealingMaskedColumns()
        _ = try await revealed.execute("INSERT INTO people(name, email) VALUES ('Dee', 'dee@new.example')")
        #expect(try await revealed.execute("UPDATE people SET name = 'Annie' WHERE email LIKE 'zz-ann%'").rowsAffected == 1)
        _ = try await revealed.execute("UPDATE orders SET note = 'second' WHERE id = 1")
        #expect(try database.scalar("SELECT value FROM log", as: String.self) == "zz-ann@secret.example")
        _ = await caughtError { () async throws(SwiftDBAIError) in try await masked.execute("UPDATE people SET name = 'x' WHERE id = 2") }
        let hiding = try executor(database, .unrestricted).revealingMaskedColumns()
        _ = await caughtError { () async throws(SwiftDBAIError) in try await hiding.execute("UPDATE people SET name = 'x' WHERE id = 2") }
        #expect(try database.scalar("SELECT name FROM people WHERE id = 2", as: String.self) == "Bob")
    }

    @Test("rules that stop matching the database fail closed, and a primary key rows are stored in the order of cannot be protected")
    func failClosed() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        _ = try await executor.query("SELECT name FROM people")
        let queue = try DatabaseQueue(path: database.path)
        try await queue.write { db in try db.execute(sql: "ALTER TABLE people RENAME COLUMN email TO mail") }
        try queue.close()
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT mail FROM people") }
        #expect(error?.description.contains("does not match its masked and hidden columns") == true)
        let keyed = SafetyPolicy(columnProtection: ColumnProtection(masked: ["orders": ["id"]]))
        #expect(throws: SwiftDBAIError.self) { try SQLExecutor(path: database.path, policy: keyed) }
    }

    @Test("the preview of a write shows masked values only to a caller who may unmask")
    func preview() async throws {
        let database = try ScratchDatabase(Self.script)
        let policy = SafetyPolicy(allowlist: .unrestricted, columnProtection: ColumnProtection(masked: ["people": ["email"]]))
        let masked = try SQLExecutor(path: database.path, policy: policy)
        _ = await caughtError { () async throws(SwiftDBAIError) in
            try await masked.preview([BoundStatement(sql: "DELETE FROM people WHERE id = 2")])
        }
        let preview = try await masked.revealingMaskedColumns().preview([BoundStatement(sql: "DELETE FROM people WHERE id = 2")])
        let rows = try #require(preview.affectedRows)
        #expect(rows.rows.first?.contains(.text("aa-bob@hidden.example")) == true)
    }

    @Test("exports leave out hidden columns and write masked ones as empty")
    func export() async throws {
        let database = try ScratchDatabase(Self.script)
        let path = database.folder.appendingPathComponent("export.csv").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        defer { close(descriptor) }
        let summary = try await executor(database).export("SELECT * FROM people", format: .csv, to: descriptor, chunkBytes: 1 << 20)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(summary.rowCount == 3)
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
        #expect(try await executor.findValues(["zz-ann@secret.example", "999-22-3333"], in: schema).isEmpty)
        #expect(schema.table(named: "mail_fts") == nil && schema.table(named: "loose_fts") == nil)
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
        #expect(try await executor.query("SELECT id FROM people ORDER BY email_domain, id").rows == [[.integer(1)], [.integer(2)], [.integer(3)]])
        let schema = try await executor.schema()
        #expect(schema.table(named: "people")?.columns.filter(\.isMasked).map(\.name) == ["email", "ssn", "email_domain"])
    }

    @Test("an expression default, a full-text index kept by triggers, then a view put in the table's place")
    func schemasAsAppsWriteThem() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, email TEXT, created TEXT DEFAULT (datetime('now')));
            CREATE VIRTUAL TABLE users_fts USING fts5(name, content='users', content_rowid='id');
            CREATE TRIGGER users_ai AFTER INSERT ON users BEGIN INSERT INTO users_fts(rowid, name) VALUES (new.id, new.name); END;
            INSERT INTO users(name, email) VALUES ('Ann', 'zz-ann@secret.example');
            """)
        let policy = SafetyPolicy(allowlist: .unrestricted, columnProtection: ColumnProtection(masked: ["users": ["email"]]))
        let executor = try SQLExecutor(path: database.path, policy: policy)
        #expect(try await executor.query("SELECT name, email FROM users").rows == [[.text("Ann"), .null]])
        _ = try await executor.revealingMaskedColumns().execute("INSERT INTO users(name, email) VALUES ('Bo', 'bo@new.example')")
        #expect(try await executor.query("SELECT rowid FROM users_fts WHERE users_fts MATCH 'Bo'").rows == [[.integer(2)]])
        let queue = try DatabaseQueue(path: database.path)
        try await queue.write { db in
            try db.execute(sql: "ALTER TABLE users RENAME TO users_data; CREATE VIEW users AS SELECT * FROM users_data")
        }
        try queue.close()
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT email FROM users_data") }
        Self.expectNoSecret(error?.description ?? "")
    }

    @Test("without a database file (no reading connection of their own), protected reads refuse to run")
    func noFile() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t(a, secret); INSERT INTO t VALUES (1, 'x')") }
        let executor = try SQLExecutor(database: queue, policy: SafetyPolicy(columnProtection: ColumnProtection(masked: ["t": ["secret"]])))
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT secret FROM t") }
    }
}
