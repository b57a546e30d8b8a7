import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Views and the table allowlist")
struct ViewAllowlistTests {
    @Test("a view is readable only when it is listed too, and then its tables must be listed")
    func viewNeedsListing() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);
            CREATE VIEW a_names AS SELECT name FROM a;
            INSERT INTO a(name) VALUES ('x');
            """)
        let tableOnly = try database.executor(validators: [TableAllowlistValidator(["a"])])
        await #expect(throws: SwiftDBAIError.self) { _ = try await tableOnly.query("SELECT * FROM a_names") }
        let both = try database.executor(validators: [TableAllowlistValidator(["a", "a_names"])])
        #expect(try await both.query("SELECT * FROM a_names").rows == [["x"]])
        let viewOnly = try database.executor(validators: [TableAllowlistValidator(["a_names"])])
        await #expect(throws: SwiftDBAIError.self) { _ = try await viewOnly.query("SELECT * FROM a_names") }
    }
}
