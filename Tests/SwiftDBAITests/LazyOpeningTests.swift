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

    @Test("presence only: the writing connection opens at its first use; reads alone never open it")
    func writerOpensWhenUsed() async throws {
        let database = try ScratchDatabase("CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);")
        let reader = try SQLExecutor(OpenedDatabase(path: database.path, readOnly: true, reading: .presence))
        #expect(reader.writer.ifOpen == nil)
        #expect(try await reader.query("SELECT count(*) FROM a").rows == [[.integer(0)]])
        #expect(reader.writer.ifOpen == nil, "reads run on the reader pool")

        let writer = try SQLExecutor(
            OpenedDatabase(path: database.path, readOnly: false, reading: .presence), policy: SafetyPolicy(allowlist: .standard))
        #expect(writer.writer.ifOpen == nil)
        let inserted = try await writer.execute("INSERT INTO a(name) VALUES ('x')")
        #expect(inserted.rowsAffected == 1)
        #expect(writer.writer.ifOpen != nil)
        await writer.close()
        await #expect(throws: SwiftDBAIError.self) { try await writer.execute("INSERT INTO a(name) VALUES ('y')") }
    }

    @Test("presence only: a file whose tables were all dropped opens (its schema version is not 0); its first use says it is empty")
    func everyTableDropped() async throws {
        let database = try ScratchDatabase("CREATE TABLE a(id INTEGER PRIMARY KEY); DROP TABLE a;")
        let executor = try SQLExecutor(OpenedDatabase(path: database.path, readOnly: true, reading: .presence))
        await #expect(throws: SwiftDBAIError.emptyDatabase(path: database.path)) { try await executor.schema() }
        #expect(throws: SwiftDBAIError.emptyDatabase(path: database.path)) {
            try OpenedDatabase(path: database.path, readOnly: true, reading: .names)
        }
    }

    @Test("presence only: the file is checked at opening as a full opening checks it", arguments: [
        ("", "empty"), ("not a database at all, but long enough to have a header", "notADatabase"),
    ])
    func presenceChecksTheFile(contents: String, expected: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file.sqlite").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SwiftDBAIError.self) { try OpenedDatabase(path: path, readOnly: true, reading: .presence) }
        #expect(error == (expected == "empty" ? .emptyDatabase(path: path) : .notADatabase(path: path)))
        #expect(throws: SwiftDBAIError.fileNotFound(path: path + "-missing")) {
            try OpenedDatabase(path: path + "-missing", readOnly: true, reading: .presence)
        }
    }
}
