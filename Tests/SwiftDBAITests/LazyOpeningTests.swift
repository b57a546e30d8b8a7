import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Opening without reading the columns: the schema is read at the first access")
struct LazyOpeningTests {
    @Test("names only at opening; the executor reads the whole schema when first used, and sees later changes")
    func lazySchema() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);
            CREATE VIEW v AS SELECT name FROM a;
            """)
        let opened = try OpenedDatabase(path: database.path, readOnly: true, reading: .names)
        #expect(!opened.isSchemaComplete)
        #expect(opened.schema.tableNames == ["a", "v"])
        #expect(opened.schema.tables.allSatisfy { $0.columns.isEmpty })
        let executor = try SQLExecutor(opened)
        #expect(try await executor.schema().table(named: "a")?.columns.map(\.name) == ["id", "name"])
        let writer = try DatabaseQueue(path: database.path)
        try await writer.write { db in try db.execute(sql: "ALTER TABLE a ADD COLUMN added INTEGER") }
        try writer.close()
        #expect(try await executor.schema().table(named: "a")?.columns.map(\.name) == ["id", "name", "added"])
        let result = try await executor.query("SELECT added FROM a")
        #expect(result.columns.map(\.name) == ["added"])
    }

    @Test("an empty database is still refused at opening, whatever is read")
    func emptyRefused() throws {
        let database = try ScratchDatabase("PRAGMA user_version = 1;")
        for reading in [OpenedDatabase.SchemaReading.names, .presence] {
            #expect(throws: SwiftDBAIError.emptyDatabase(path: database.path)) {
                try OpenedDatabase(path: database.path, readOnly: true, reading: reading)
            }
        }
    }

    @Test("presence only: an empty schema at opening, the whole one at the first access")
    func presenceOnly() async throws {
        let database = try ScratchDatabase("CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);")
        let opened = try OpenedDatabase(path: database.path, readOnly: true, reading: .presence)
        #expect(opened.schema.tables.isEmpty)
        #expect(try await SQLExecutor(opened).schema().tableNames == ["a"])
    }
}
