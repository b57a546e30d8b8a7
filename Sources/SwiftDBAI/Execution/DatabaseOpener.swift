import Foundation
import GRDB

/// Opens an existing SQLite file without side effects.
///
/// - A missing file is an error: nothing is ever created.
/// - A file that is not SQLite (or is empty) is a typed error, detected from its header.
/// - `readOnly` opens the file with `SQLITE_OPEN_READONLY`.
/// - Nothing changes the journal mode or any persistent setting of the file; connection
///   settings (foreign keys, busy timeout) last as long as the connection.
///
/// ```swift
/// let dbQueue = try DatabaseOpener.open(path: "app.sqlite", readOnly: true)
/// ```
public enum DatabaseOpener {
    /// How long a statement waits for another process's lock before failing.
    public static let defaultBusyTimeout: TimeInterval = 5

    /// Opens the database at `path`.
    ///
    /// - Throws: ``SwiftDBAIError/fileNotFound(path:)``, ``SwiftDBAIError/emptyDatabase(path:)``,
    ///   ``SwiftDBAIError/notADatabase(path:)`` or ``SwiftDBAIError/cannotOpen(path:reason:)``.
    public static func open(
        path: String, readOnly: Bool, busyTimeout: TimeInterval = defaultBusyTimeout
    ) throws(SwiftDBAIError) -> DatabaseQueue {
        try checkFile(at: path)
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "SwiftDBAI"
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notADatabase(path: path)
        } catch let error as DatabaseError {
            throw .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Checks that `path` names a readable SQLite file.
    ///
    /// - Throws: ``SwiftDBAIError`` as ``open(path:readOnly:busyTimeout:)``.
    public static func checkFile(at path: String) throws(SwiftDBAIError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else {
            throw .cannotOpen(path: path, reason: "it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: "the file is not readable (check its permissions)")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty {
            throw .emptyDatabase(path: path)
        }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw .notADatabase(path: path)
        }
    }
}
