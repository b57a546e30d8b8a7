import Foundation
import GRDB
import SwiftDBAI

/// An SQLite file of the server's own in `--state-dir` (conversations, the confirmation ledger):
/// the directory is created when missing (readable by the user alone), the file is never one of
/// the databases served nor another program's database, and it is proven writable when opened.
/// Several server processes on one host may open the same file: SQLite's locks order their
/// writes, and each waits up to five seconds for another's.
enum StateDirectoryFile {
    /// `PRAGMA application_id` of the server's files: "DBAI".
    static let applicationID: Int32 = 0x4442_4149

    /// Opens (or creates) `name` in `directory` and runs `schema` (idempotent statements) in one
    /// transaction, after checking the file is ours or new.
    ///
    /// - Parameters:
    ///   - purpose: what the file keeps, for the error messages ("conversations").
    ///   - databases: the absolute paths of the databases served.
    /// - Throws: ``DBAIServerConfigurationError/stateDirectory(_:reason:)``.
    static func open(
        _ name: String, in directory: String, keeping purpose: String, apartFrom databases: [String], schema: String
    ) throws(DBAIServerConfigurationError) -> (path: String, queue: DatabaseQueue) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .stateDirectory(directory, reason: "it exists and is not a directory") }
        } else {
            do {
                // Questions, SQL and confirmations are the user's: readable by the user alone.
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .stateDirectory(directory, reason: "it cannot be created (\(reason(error)))")
            }
        }
        let path = AuditRecord.absolutePath((directory as NSString).appendingPathComponent(name))
        guard !databases.contains(path) else {
            throw .stateDirectory(directory, reason: "its \(name) is a database this server serves; \(purpose) are never kept in it")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.label = "dbai-mcp \(purpose)"
        let isNew = !FileManager.default.fileExists(atPath: path)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            if isNew { _ = chmod(path, 0o600) }
            try queue.write { db in
                // Ours, or new: another program's database is never written.
                let owner = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let objects = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                guard owner == applicationID || (owner == 0 && objects == 0) else {
                    throw ForeignFile()
                }
                try db.execute(sql: "PRAGMA application_id = \(applicationID)")
                try db.execute(sql: schema)
            }
            return (path, queue)
        } catch is ForeignFile {
            throw .stateDirectory(directory, reason: "\(path) is another program's SQLite database; \(purpose) are kept only in a file of their own")
        } catch {
            throw .stateDirectory(directory, reason: "\(path) cannot be opened and written (\(reason(error)))")
        }
    }

    private struct ForeignFile: Error {}

    /// What went wrong, in a sentence.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return (error as NSError).localizedDescription
    }
}
