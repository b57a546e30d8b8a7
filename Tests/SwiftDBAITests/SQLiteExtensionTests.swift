import Foundation
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLite extensions")
struct SQLiteExtensionTests {
    @Test("an extension that is missing or not a library is a typed error naming it, and nothing opens")
    func failures() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("app.sqlite").path
            try TestDatabase.makeFile(at: path, ddl: "CREATE TABLE t(x);")
            let missing = directory.appendingPathComponent("nope/vec0.so").path
            #expect(throws: SwiftDBAIError.extensionNotLoaded(path: missing, reason: "no such file")) {
                try OpenedDatabase(path: path, readOnly: true, extensions: [SQLiteExtension(path: missing)])
            }
            do throws(SwiftDBAIError) {
                _ = try OpenedDatabase(path: path, readOnly: true, extensions: [SQLiteExtension(path: path)])
                Issue.record("a database file loaded as an extension")
            } catch {
                guard case .extensionNotLoaded(let named, let reason) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(named == path && !reason.isEmpty)
                #expect(error.code == .databaseUnavailable)
            }
        }
    }
}
