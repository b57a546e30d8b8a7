import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLExecutor and virtual tables")
struct SQLExecutorVirtualTableTests {
    @Test("inserting many rows into an FTS5 table is an insert, even when FTS5 rewrites its shadow tables")
    func fts5Insert() async throws {
        let database = try ScratchDatabase("CREATE VIRTUAL TABLE docs USING fts5(title, body);")
        let executor = try database.executor(.standard, mutationPolicy: MutationPolicy(tableRules: ["docs": [.insert]]))
        for batch in 0..<40 {
            let rows: [[String: SQLValue]] = (0..<25).map { index in
                ["title": .text("t\(batch)-\(index)"), "body": .text("body words \(batch) \(index) shared")]
            }
            #expect(try await executor.insert(into: "docs", rows: rows).rowsAffected == 25)
        }
        let found = try await executor.query("SELECT count(*) FROM docs WHERE docs MATCH 'shared'")
        #expect(found.rows == [[1000]])
    }
}
