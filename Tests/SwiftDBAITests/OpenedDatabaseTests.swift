import Foundation
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// One opening, one introspection: the policy is built from the schema the opened database read.
@Suite("Opened database")
struct OpenedDatabaseTests {
    @Test("the schema is read once and the executor built from it sees what the policy allows")
    func policyFromSchema() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("app.sqlite").path
            try TestDatabase.makeFile(
                at: path, ddl: "CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE internal_keys(k TEXT);")
            let opened = try OpenedDatabase(path: path, readOnly: true)
            #expect(Set(opened.schema.tables.map(\.name)) == ["notes", "internal_keys"])
            let visible = opened.schema.tables.map(\.name).filter { !$0.hasPrefix("internal_") }
            let executor = try SQLExecutor(opened, policy: SafetyPolicy(validators: [TableAllowlistValidator(visible)]))
            #expect(try await executor.schema().tables.map(\.name) == ["notes"])
            let error = await caughtError { () async throws(SwiftDBAIError) in
                _ = try await executor.query("SELECT * FROM internal_keys")
            }
            #expect(error != nil)
        }
    }

    @Test("a missing file is fileNotFound and nothing is created")
    func missingFile() throws {
        let path = TestDatabase.unusedTemporaryPath(".sqlite")
        #expect(throws: SwiftDBAIError.fileNotFound(path: path)) { try OpenedDatabase(path: path, readOnly: false) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a read-only opening cannot be made to write, whatever the policy says")
    func readOnlyOpening() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("app.sqlite").path
            try TestDatabase.makeFile(at: path, ddl: "CREATE TABLE t(a);")
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let executor = try SQLExecutor(
                OpenedDatabase(path: path, readOnly: true), policy: SafetyPolicy(allowlist: .unrestricted))
            let error = await caughtError { () async throws(SwiftDBAIError) in
                _ = try await executor.execute("INSERT INTO t VALUES (1)")
            }
            #expect(error != nil)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }
}
