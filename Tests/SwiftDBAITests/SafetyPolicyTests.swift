import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SafetyPolicy")
struct SafetyPolicyTests {
    private func rejection(_ sql: String, _ classifier: SQLStatementClassifier, _ policy: SafetyPolicy) -> SQLRejection? {
        SQLStatementClassifierTests.rejection(of: sql, by: classifier, under: policy)
    }

    // MARK: - Mutation policy

    static let notesSchema = """
        CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT UNIQUE);
        CREATE TABLE secrets(id INTEGER PRIMARY KEY, value TEXT);
        CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
        """

    /// INSERT and UPDATE on `notes` only.
    static let notesPolicy = SafetyPolicy(
        allowlist: .standard,
        mutationPolicy: MutationPolicy(tableRules: ["notes": [.insert, .update]]))

    static let notesRejections: [SQLStatementClassifierTests.Rejection] = [
        .init("INSERT OR REPLACE INTO secrets(id, value) VALUES (1, 'x')", .writeNotAllowed),
        .init("INSERT INTO secrets(value) VALUES ('x')", .writeNotAllowed),
        .init("UPDATE notes SET body = 'a' /*'*/; DELETE FROM users; /*'*/", .multipleStatements),
        .init("INSERT INTO users(id, name) VALUES (1, 'a') ON CONFLICT(name) DO UPDATE SET id = excluded.id", .writeNotAllowed),
        .init("WITH x AS (SELECT 1) UPDATE users SET name = 'b'", .writeNotAllowed),
        .init("DELETE FROM notes", .operationNotAllowed),
        // REPLACE may delete the row that holds the same body: DELETE is not allowed.
        .init("INSERT OR REPLACE INTO notes(body) VALUES ('x')", .operationNotAllowed),
        .init("UPDATE OR REPLACE notes SET body = 'x' WHERE id = 2", .operationNotAllowed),
    ]

    @Test("a per-table mutation policy refuses writes elsewhere, however they are spelled",
          arguments: notesRejections)
    func mutationPolicyRejects(_ example: SQLStatementClassifierTests.Rejection) async throws {
        let classifier = try await TestDatabase.classifier(Self.notesSchema)
        #expect(rejection(example.sql, classifier, Self.notesPolicy)?.code == example.code)
    }

    @Test("a per-table mutation policy allows the listed writes and every read", arguments: [
        "INSERT INTO notes(body) VALUES ('x')",
        "UPDATE notes SET body = 'y' WHERE id = 1",
        "INSERT INTO notes(body) VALUES ('x') ON CONFLICT(body) DO UPDATE SET body = excluded.body || '!'",
        "SELECT * FROM secrets JOIN users USING (id)",
    ])
    func mutationPolicyAllows(sql: String) async throws {
        let classifier = try await TestDatabase.classifier(Self.notesSchema)
        #expect(rejection(sql, classifier, Self.notesPolicy) == nil)
    }

    @Test("a write made by a trigger must be allowed too")
    func triggerWrites() async throws {
        let classifier = try await TestDatabase.classifier(Self.notesSchema + """
            CREATE TRIGGER notes_copy AFTER INSERT ON notes BEGIN
                INSERT INTO secrets(value) VALUES (new.body);
            END;
            """)
        let statement = try classifier.classify("INSERT INTO notes(body) VALUES ('x')")
        #expect(statement.operation == .insert)
        #expect(statement.tablesWritten == ["notes": [.insert], "secrets": [.insert]])
        let refusal = rejection("INSERT INTO notes(body) VALUES ('x')", classifier, Self.notesPolicy)
        #expect(refusal?.code == .writeNotAllowed)
        #expect(refusal?.message.contains("secrets") == true)
        #expect(rejection("UPDATE notes SET body = 'y'", classifier, Self.notesPolicy) == nil,
                "the trigger fires on INSERT only")
    }

    @Test("REPLACE on a table whose rules include DELETE is allowed, and needs confirmation")
    func replaceWithDeleteAllowed() async throws {
        let classifier = try await TestDatabase.classifier(Self.notesSchema)
        let statement = try classifier.classify("INSERT OR REPLACE INTO notes(body) VALUES ('x')")
        let restricted = SafetyPolicy(
            allowlist: .unrestricted, mutationPolicy: MutationPolicy(tableRules: ["notes": [.insert, .update]]))
        #expect(throws: SQLRejection.self) { try restricted.authorize(statement) }
        let permissive = SafetyPolicy(allowlist: .unrestricted, mutationPolicy: .writableTables(["notes"]))
        try permissive.authorize(statement)
        #expect(permissive.requiresConfirmation(statement))
        let insert = try classifier.classify("INSERT INTO notes(body) VALUES ('x')")
        #expect(!permissive.requiresConfirmation(insert))
    }

    @Test("DELETE that cascades needs the child table's DELETE rule and confirmation")
    func cascadingDelete() async throws {
        let classifier = try await TestDatabase.classifier("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY);
            CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent ON DELETE CASCADE);
            """)
        let statement = try classifier.classify("DELETE FROM parent WHERE id = 1")
        let parentOnly = SafetyPolicy(allowlist: .unrestricted, mutationPolicy: .writableTables(["parent"]))
        #expect(throws: SQLRejection.self) { try parentOnly.authorize(statement) }
        let both = SafetyPolicy(allowlist: .unrestricted, mutationPolicy: .writableTables(["Parent", "CHILD"]))
        try both.authorize(statement)
        #expect(both.requiresConfirmation(statement))
        let standard = SafetyPolicy(allowlist: .standard)
        #expect(rejection("DELETE FROM parent WHERE id = 1", classifier, standard)?.code == .operationNotAllowed)
    }

    @Test("MutationPolicy matches table names case-insensitively and gates writes only")
    func mutationPolicyRules() {
        let policy = MutationPolicy(tableRules: ["Notes": [.insert], "notes": [.update]])
        #expect(policy.allows(.insert, on: "NOTES"))
        #expect(policy.allows(.update, on: "notes"))
        #expect(!policy.allows(.delete, on: "notes"))
        #expect(!policy.allows(.insert, on: "secrets"))
        #expect(policy.allows(.select, on: "secrets"))
        #expect(MutationPolicy.default.allows(.delete, on: "anything"))
        #expect(MutationPolicy.default.requiresConfirmation(.delete))
        #expect(!MutationPolicy.default.requiresConfirmation(.update))
        #expect(!MutationPolicy(operationsRequiringConfirmation: []).requiresConfirmation(.delete))
    }

    // MARK: - Table allowlist

    static let allowlistSchema = """
        CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE b(id INTEGER PRIMARY KEY, secret TEXT);
        CREATE INDEX b_secret ON b(secret);
        CREATE VIEW vb AS SELECT * FROM b;
        CREATE VIEW va AS SELECT * FROM a;
        CREATE VIEW vab AS SELECT a.name, b.secret FROM a JOIN b USING (id);
        """

    static let hiddenReads = [
        "SELECT * FROM b",
        "SELECT * FROM vb",
        "SELECT name FROM vab",
        "SELECT * FROM a WHERE id IN (SELECT id FROM b)",
        "SELECT (SELECT secret FROM b LIMIT 1) FROM a",
        "SELECT * FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.id = a.id)",
        "WITH c AS (SELECT * FROM b) SELECT * FROM c",
        "SELECT * FROM a JOIN b USING (id)",
        "PRAGMA table_info(b)",
        "PRAGMA table_xinfo('B')",
        "PRAGMA index_info(b_secret)",
        "PRAGMA index_list(b)",
        "SELECT * FROM pragma_table_info('b')",
        "SELECT * FROM pragma_table_info(?)",
        "SELECT p.* FROM a, pragma_table_info(a.name) p",
        "SELECT * FROM pragma_table_list",
        "PRAGMA table_list",
        "SELECT * FROM sqlite_schema",
        "SELECT sql FROM sqlite_master WHERE name = 'a'",
        "INSERT INTO a(name) SELECT secret FROM b",
    ]

    @Test("a table allowlist hides other tables from every kind of read", arguments: hiddenReads)
    func tableAllowlistRejects(sql: String) async throws {
        let classifier = try await TestDatabase.classifier(Self.allowlistSchema)
        let policy = SafetyPolicy(allowlist: .standard, validators: [TableAllowlistValidator(["a", "va"])])
        // The first use of an eponymous table (pragma_table_info…) differs inside SQLite from
        // later ones: both must be refused.
        #expect(rejection(sql, classifier, policy)?.code == .tableNotAllowed)
        #expect(rejection(sql, classifier, policy)?.code == .tableNotAllowed)
    }

    @Test("under a table allowlist, a table-valued PRAGMA function is refused even for a listed table")
    func tableValuedPragmaUnderAllowlist() async throws {
        // Its argument may come from a parameter or a column, known only when it runs.
        let classifier = try await TestDatabase.classifier(Self.allowlistSchema)
        let policy = SafetyPolicy(validators: [TableAllowlistValidator(["a", "va"])])
        #expect(rejection("SELECT name FROM pragma_table_info('a')", classifier, policy)?.code == .tableNotAllowed)
        #expect(rejection("PRAGMA table_info(a)", classifier, policy) == nil)
        let everything = SafetyPolicy(validators: [TableAllowlistValidator(["a", "b", "va", "vb", "vab"])])
        #expect(rejection("SELECT name FROM pragma_table_info('a')", classifier, everything) == nil)
    }

    @Test("a table allowlist lets the listed tables and views be read and written", arguments: [
        "SELECT * FROM a",
        "SELECT * FROM A WHERE name = 'b'",
        "SELECT * FROM va",
        "WITH c AS (SELECT * FROM a) SELECT * FROM c",
        "PRAGMA table_info(a)",
        "PRAGMA index_list(A)",
        "PRAGMA table_list(a)",
        "PRAGMA user_version",
        "SELECT * FROM json_each('[1]')",
        "INSERT INTO a(name) VALUES ('x')",
    ])
    func tableAllowlistAllows(sql: String) async throws {
        let classifier = try await TestDatabase.classifier(Self.allowlistSchema)
        let policy = SafetyPolicy(allowlist: .standard, validators: [TableAllowlistValidator(["a", "va"])])
        #expect(rejection(sql, classifier, policy) == nil)
        #expect(rejection(sql, classifier, policy) == nil)
    }

    @Test("a view is readable only when the tables it reads are listed too")
    func viewNeedsItsTables() async throws {
        let classifier = try await TestDatabase.classifier(Self.allowlistSchema)
        let statement = try classifier.classify("SELECT * FROM vb")
        #expect(throws: SQLRejection.self) { try TableAllowlistValidator(["vb"]).validate(statement) }
        try TableAllowlistValidator(["vb", "B"]).validate(statement)
    }

    // MARK: - Row limits and validators

    @Test("MaxRowLimitValidator caps reads without refusing statements, and the policy keeps the smallest cap")
    func maxRowLimit() async throws {
        #expect(MaxRowLimitValidator(maxRows: 100).maximumRowCount == 100)
        #expect(MaxRowLimitValidator(maxRows: 0).maxRows == 1)
        #expect(MaxRowLimitValidator(maxRows: -5).maximumRowCount == 1)
        #expect(TableAllowlistValidator(["a"]).maximumRowCount == nil)
        #expect(SafetyPolicy().maximumRowCount == nil)
        let policy = SafetyPolicy(validators: [
            MaxRowLimitValidator(maxRows: 500), TableAllowlistValidator(["a"]), MaxRowLimitValidator(maxRows: 20),
        ])
        #expect(policy.maximumRowCount == 20)

        let classifier = try await TestDatabase.classifier(Self.allowlistSchema)
        let statement = try classifier.classify("SELECT * FROM a")
        try MaxRowLimitValidator(maxRows: 1).validate(statement)
        try policy.authorize(statement)
    }

    struct NoSecretWrites: QueryValidator {
        func validate(_ statement: ClassifiedStatement) throws(SQLRejection) {
            if statement.tablesWritten["b"] != nil {
                throw SQLRejection(.validatorRejected, "b is written by the application only.")
            }
        }
    }

    @Test("custom validators run after the allowlist and see the compiled statement")
    func customValidator() async throws {
        let classifier = try await TestDatabase.classifier(Self.allowlistSchema + """
            CREATE TRIGGER a_copy AFTER INSERT ON a BEGIN INSERT INTO b(secret) VALUES (new.name); END;
            """)
        let policy = SafetyPolicy(allowlist: .standard, validators: [NoSecretWrites()])
        #expect(rejection("INSERT INTO a(name) VALUES ('x')", classifier, policy)?.code == .validatorRejected)
        #expect(rejection("UPDATE a SET name = 'y'", classifier, policy) == nil)
        #expect(rejection("DELETE FROM a", classifier, policy)?.code == .operationNotAllowed)
    }

    // MARK: - Operation allowlist

    @Test("OperationAllowlist parses its names and operation lists", arguments: [
        ("readonly", OperationAllowlist.readOnly),
        ("read-only", .readOnly),
        ("standard", .standard),
        (" STANDARD ", .standard),
        ("unrestricted", .unrestricted),
        ("all", .unrestricted),
        ("select,insert", OperationAllowlist([.select, .insert])),
        ("select, insert ,update", .standard),
        ("delete", OperationAllowlist([.delete])),
    ])
    func parseAllowlist(text: String, expected: OperationAllowlist) throws {
        #expect(try OperationAllowlist(parsing: text) == expected)
    }

    @Test("OperationAllowlist refuses unknown words with a typed error", arguments: [
        "drop", "select,drop", "read only", "", ",", "select;delete",
    ])
    func parseAllowlistFailure(text: String) {
        #expect {
            try OperationAllowlist(parsing: text)
        } throws: { error in
            guard case SwiftDBAIError.invalidRequest(let message) = error else { return false }
            return message.contains("readonly") && message.contains("select,insert")
        }
    }

    @Test("OperationAllowlist describes itself in the words it parses")
    func allowlistDescription() throws {
        #expect(OperationAllowlist.readOnly.description == "readonly")
        #expect(OperationAllowlist.standard.description == "standard")
        #expect(OperationAllowlist.unrestricted.description == "unrestricted")
        #expect(OperationAllowlist([.insert, .select]).description == "select,insert")
        for allowlist in [OperationAllowlist.readOnly, .standard, .unrestricted, OperationAllowlist([.select, .delete])] {
            #expect(try OperationAllowlist(parsing: allowlist.description) == allowlist)
        }
        #expect(!OperationAllowlist.readOnly.allowsWrites)
        #expect(OperationAllowlist.standard.allowsWrites)
        #expect(!OperationAllowlist.standard.allows(.delete))
        #expect(OperationAllowlist.unrestricted.allows(.delete))
    }
}
