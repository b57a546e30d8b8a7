import Foundation
import GRDB
import SwiftDBAI

/// Fresh databases for tests: every call makes a new one, nothing is shared between tests.
package enum TestDatabase {
    /// The directory of the sample databases bundled with the repository: `<repo>/Examples`,
    /// resolved from this file.
    package static let sampleDataDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SwiftDBAITestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Examples", isDirectory: true)
        .standardizedFileURL

    /// The path of a sample database (`chinook.sqlite`, `northwind.sqlite`).
    package static func samplePath(_ fileName: String) -> String {
        sampleDataDirectory.appendingPathComponent(fileName).path
    }

    /// An executor over the bundled Chinook database (read-only policy).
    package static func chinook() throws -> SQLExecutor {
        try SQLExecutor(path: samplePath("chinook.sqlite"))
    }

    /// The schema of the bundled Chinook database.
    package static func chinookSchema() async throws -> DatabaseSchema {
        try await chinook().schema()
    }

    /// A new in-memory database holding the objects of `ddl` (foreign keys enforced).
    package static func inMemory(_ ddl: String = "") throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        if !ddl.isEmpty {
            try dbQueue.write { db in try db.execute(sql: ddl) }
        }
        return dbQueue
    }

    /// The schema of a new in-memory database holding the objects of `ddl`.
    package static func schema(_ ddl: String, includesRowCounts: Bool = true) async throws -> DatabaseSchema {
        try await SchemaIntrospector(includesRowCounts: includesRowCounts).introspect(inMemory(ddl))
    }

    /// A classifier for the schema of a new in-memory database holding the objects of `ddl`.
    package static func classifier(_ ddl: String) async throws -> SQLStatementClassifier {
        try SQLStatementClassifier(schema: await schema(ddl, includesRowCounts: false))
    }

    /// Runs `body` with a new empty temporary directory, removed afterwards.
    package static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SwiftDBAITests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// Creates a database file at `path` holding the objects of `ddl`, and closes it.
    package static func makeFile(at path: String, ddl: String) throws {
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in try db.execute(sql: ddl) }
        try dbQueue.close()
    }

    /// A unique path in the system temporary directory that names no file.
    package static func unusedTemporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("SwiftDBAITests-\(UUID().uuidString)-\(suffix)").path
    }
}
