import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLExecutor opening and schema")
struct SQLExecutorOpeningTests {
    @Test("a missing file is an error and is never created")
    func missingFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-missing-\(UUID()).sqlite").path
        #expect(throws: SwiftDBAIError.fileNotFound(path: path)) {
            _ = try SQLExecutor(path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a file that is not SQLite, and an empty one, are typed errors")
    func notADatabase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.txt").path
        try Data("hello, this is not a database at all".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: SwiftDBAIError.notADatabase(path: text)) { _ = try SQLExecutor(path: text) }
        let empty = folder.appendingPathComponent("empty.sqlite").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: SwiftDBAIError.emptyDatabase(path: empty)) { _ = try SQLExecutor(path: empty) }
    }

    @Test("reads leave the file, its journal mode and its settings untouched")
    func noSideEffects() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a); INSERT INTO t VALUES (1);")
        let before = try database.contents()
        let executor = try database.executor(.standard)
        _ = try await executor.query("SELECT * FROM t")
        _ = try await executor.schema(includingRowCounts: true)
        _ = try await executor.schemaDescription(sampleRowCount: 2)
        #expect(try database.contents() == before)
        #expect(try database.scalar("PRAGMA journal_mode", as: String.self) == "delete")
        let files = try FileManager.default.contentsOfDirectory(atPath: database.folder.path)
        #expect(files == ["test.sqlite"])
    }

    @Test("a read-only allowlist opens the file read-only")
    func readOnlyConnection() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a);")
        let executor = try database.executor(.readOnly)
        _ = try await executor.writer.queue().read { db in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(try executor.writer.queue().configuration.readonly)
    }

    @Test("the cached schema refreshes when another connection changes it")
    func schemaRefresh() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a);")
        let executor = try database.executor(.readOnly)
        #expect(try await executor.schema().tableNames == ["t"])
        let other = try DatabaseQueue(path: database.path)
        try await other.write { db in try db.execute(sql: "CREATE TABLE added(b); INSERT INTO added VALUES (7)") }
        #expect(try await executor.schema().tableNames == ["t", "added"])
        #expect(try await executor.query("SELECT b FROM added").rows == [[7]])
    }

    @Test("aggregate over Chinook: count, sum by group, ordered and limited")
    func aggregateChinook() async throws {
        let executor = try SQLExecutor(path: TestDatabase.samplePath("chinook.sqlite"))
        let count = try await executor.aggregate(AggregateRequest(table: "Track", function: .count))
        #expect(count.rows == [[3503]])
        #expect(count.columns.map(\.name) == ["count"])
        let top = try await executor.aggregate(AggregateRequest(
            table: "Invoice", function: .sum, column: "Total", groupBy: ["BillingCountry"], order: .descending, limit: 3))
        #expect(top.columns.map(\.name) == ["BillingCountry", "sum_Total"])
        #expect(top.rows.first?.first == "USA")
        #expect(top.rowCount == 3)
        let brazil = try await executor.aggregate(AggregateRequest(
            table: "Customer", function: .count, filter: RowFilter(equalities: ["Country": "Brazil"])))
        #expect(brazil.rows == [[5]])
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.aggregate(AggregateRequest(table: "Invoice", function: .sum))
        }
    }

    @Test("query results carry declared types and typed values")
    func typedResults() async throws {
        let executor = try SQLExecutor(path: TestDatabase.samplePath("chinook.sqlite"))
        let result = try await executor.query(
            "SELECT TrackId, Name, UnitPrice, Composer, x'00ff' AS bytes FROM Track WHERE TrackId = 1")
        #expect(result.columns == [
            QueryColumn(name: "TrackId", declaredType: "INTEGER"), QueryColumn(name: "Name", declaredType: "NVARCHAR(200)"),
            QueryColumn(name: "UnitPrice", declaredType: "NUMERIC(10,2)"), QueryColumn(name: "Composer", declaredType: "NVARCHAR(220)"),
            QueryColumn(name: "bytes", declaredType: nil),
        ])
        #expect(result.rows == [[1, "For Those About To Rock (We Salute You)", 0.99,
                                 "Angus Young, Malcolm Young, Brian Johnson", .blob(Data([0, 255]))]])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(result), as: UTF8.self)
        #expect(json.contains(#"{"base64":"AP8=","bytes":2}"#))
        #expect(try JSONDecoder().decode(QueryResult.self, from: Data(json.utf8)) == result)
    }

    @Test("the prompt description has DDL with keys and sample rows")
    func promptDescription() async throws {
        let executor = try SQLExecutor(path: TestDatabase.samplePath("chinook.sqlite"))
        let text = try await executor.schemaDescription(sampleRowCount: 2)
        #expect(text.contains(#""ArtistId" INTEGER NOT NULL REFERENCES "Artist"("ArtistId")"#))
        #expect(text.contains(#"CREATE TABLE "PlaylistTrack" ("#))
        #expect(text.contains(#"PRIMARY KEY ("PlaylistId", "TrackId")"#))
        #expect(text.contains("-- sample: (1, 'AC/DC')"))
    }
}
