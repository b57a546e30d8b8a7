import Foundation
import Testing
import GRDB
import SwiftDBAI

/// A database file in a fresh temporary folder, removed when the value is deinitialized.
package final class ScratchDatabase: Sendable {
    package let folder: URL
    package let path: String

    /// Creates a file database from a DDL/DML script.
    package init(_ script: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("test.sqlite").path
        try TestDatabase.makeFile(at: path, ddl: script)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The file's bytes, to prove that a refused statement changed nothing.
    package func contents() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Opens an executor on the file.
    package func executor(
        _ allowlist: OperationAllowlist = .readOnly, mutationPolicy: MutationPolicy = .default,
        validators: [any QueryValidator] = [], limits: ExecutionLimits = ExecutionLimits(),
        delegate: (any SQLExecutionDelegate)? = nil
    ) throws -> SQLExecutor {
        try SQLExecutor(
            path: path,
            policy: SafetyPolicy(allowlist: allowlist, mutationPolicy: mutationPolicy, validators: validators),
            limits: limits, delegate: delegate)
    }

    /// Opens a read-only executor on the file with descriptions of its tables and columns.
    package func executor(descriptions: SchemaDescriptions) throws -> SQLExecutor {
        try SQLExecutor(OpenedDatabase(path: path, readOnly: true), descriptions: descriptions)
    }

    /// Reads one value with a separate connection.
    package func scalar<T: DatabaseValueConvertible>(_ sql: String, as type: T.Type = T.self) throws -> T? {
        let queue = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in try T.fetchOne(db, sql: sql) }
    }
}

/// The ``SwiftDBAIError`` thrown by `body`, or nil when it succeeds (recorded as an issue).
package func caughtError<T>(_ body: () async throws(SwiftDBAIError) -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> SwiftDBAIError? {
    do {
        _ = try await body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
