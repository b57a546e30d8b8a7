import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens an existing SQLite file without side effects.
///
/// - Only a regular file is opened (symbolic links resolved first): a missing file is an error
///   and nothing is ever created; a FIFO, a device or a directory is refused before anything
///   reads it.
/// - The path is always a plain file name, never an SQLite URI: a file named
///   `file:x.db?mode=rwc` or `:memory:` opens that file.
/// - A file that is not SQLite (or is empty) is a typed error, detected from its header.
/// - `readOnly` opens the file with `SQLITE_OPEN_READONLY`.
/// - Nothing changes the journal mode or any persistent setting of the file; connection
///   settings (foreign keys, busy timeout, size limits) last as long as the connection.
///
/// ```swift
/// let dbQueue = try DatabaseOpener.open(path: "app.sqlite", readOnly: true)
/// ```
package enum DatabaseOpener {
    /// How long a statement waits for another process's lock before failing.
    package static let defaultBusyTimeout: TimeInterval = 5

    /// Opens the database at `path`.
    ///
    /// - Parameters:
    ///   - maxValueBytes: the largest string or blob the connection may build or read
    ///     (`SQLITE_LIMIT_LENGTH`).
    ///   - extensions: loaded on the connection as it opens.
    /// - Throws: ``SwiftDBAIError/fileNotFound(path:)``, ``SwiftDBAIError/emptyDatabase(path:)``,
    ///   ``SwiftDBAIError/notADatabase(path:)``, ``SwiftDBAIError/cannotOpen(path:reason:)`` or
    ///   ``SwiftDBAIError/extensionNotLoaded(path:reason:)``.
    ///   - identity: the device and inode the file must still have (``CheckedFile/identity``),
    ///     for a connection opened later than the file was first checked.
    package static func open(
        path: String, readOnly: Bool, busyTimeout: TimeInterval = defaultBusyTimeout,
        maxValueBytes: Int = ExecutionLimits.defaultMaxValueBytes, extensions: [SQLiteExtension] = [],
        expecting identity: [UInt64]? = nil
    ) throws(SwiftDBAIError) -> DatabaseQueue {
        // A connection opened later (the writer, on first use) must not read the header itself:
        // closing any descriptor of the file drops every POSIX lock this process holds on it,
        // the other connections' included. SQLite reports a file that is not a database.
        let file = try checkFile(at: path, readsHeader: identity == nil)
        if let identity, file.identity != identity {
            throw .cannotOpen(path: path, reason: "the file was replaced since it was first opened; restart to use the new file")
        }
        let configuration = configuration(
            readOnly: readOnly, busyTimeout: busyTimeout, maxValueBytes: maxValueBytes, extensions: extensions)
        let database: DatabaseQueue
        do {
            database = try DatabaseQueue(path: file.resolvedPath, configuration: configuration)
        } catch let error as SwiftDBAIError {
            throw error
        } catch let error as DatabaseError {
            throw openingError(error, path: path)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        // The file checked must be the file opened (not replaced or created meanwhile).
        guard let opened = try? checkFile(at: file.resolvedPath, readsHeader: false), opened.identity == file.identity else {
            try? database.close()
            throw .cannotOpen(path: path, reason: "the file changed while it was being opened; try again")
        }
        return database
    }

    /// The error of a connection that failed to open or to read the file's first page.
    private static func openingError(_ error: DatabaseError, path: String) -> SwiftDBAIError {
        switch SwiftDBAIError(error, path: path) {
        case let known where known == .notADatabase(path: path) || known == .hotJournal(path: path):
            known
        default:
            .cannotOpen(path: path, reason: error.message ?? "\(error.resultCode)")
        }
    }

    /// The schema version of the file at `path` (`PRAGMA schema_version`), read from its first
    /// page on a read-only connection of its own, without SQLite parsing the schema: the cheap
    /// check that the file is an SQLite database that holds a schema, whatever its size. The
    /// connection never writes: it checkpoints no WAL as it closes, and a hot journal is the
    /// `hotJournal` error (a connection that may write recovers it as it opens).
    ///
    /// - Returns: the version, and the file checked (its identity, for a later opening).
    /// - Throws: ``SwiftDBAIError`` as ``open(path:readOnly:busyTimeout:maxValueBytes:extensions:expecting:)``;
    ///   `emptyDatabase` for a file where no table, view, index or trigger was ever created
    ///   (version 0).
    package static func schemaVersion(
        ofFileAt path: String, busyTimeout: TimeInterval
    ) throws(SwiftDBAIError) -> (version: Int, file: CheckedFile) {
        let file = try checkFile(at: path)
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        func failure(_ code: Int32) -> SwiftDBAIError {
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
            return openingError(DatabaseError(resultCode: ResultCode(rawValue: extended), message: message), path: path)
        }
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        let opened = sqlite3_open_v2(file.resolvedPath, &connection, flags, nil)
        guard opened == SQLITE_OK, let connection else { throw failure(opened) }
        sqlite3_busy_timeout(connection, Int32(clamping: Int(busyTimeout * 1_000)))
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let prepared = sqlite3_prepare_v2(connection, "PRAGMA schema_version", -1, &statement, nil)
        guard prepared == SQLITE_OK else { throw failure(prepared) }
        let stepped = sqlite3_step(statement)
        guard stepped == SQLITE_ROW else { throw failure(stepped) }
        let version = Int(sqlite3_column_int64(statement, 0))
        guard version != 0 else { throw .emptyDatabase(path: path) }
        return (version, file)
    }

    /// The connection settings of ``open(path:readOnly:busyTimeout:maxValueBytes:extensions:)``.
    static func configuration(
        readOnly: Bool, busyTimeout: TimeInterval, maxValueBytes: Int, extensions: [SQLiteExtension] = []
    ) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "SwiftDBAI"
        configuration.prepareDatabase { db in
            applyLimits(to: db.sqliteConnection, maxValueBytes: maxValueBytes)
            try SQLiteExtension.load(extensions, into: db.sqliteConnection)
        }
        return configuration
    }

    /// Caps what one statement may build on a connection: strings and blobs at `maxValueBytes`,
    /// SQL text at 1 MiB.
    static func applyLimits(to connection: OpaquePointer?, maxValueBytes: Int) {
        guard let connection else { return }
        sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, Int32(clamping: maxValueBytes))
        sqlite3_limit(connection, SQLITE_LIMIT_SQL_LENGTH, 1 << 20)
    }

    /// A regular file checked by ``checkFile(at:)``.
    package struct CheckedFile: Sendable, Hashable {
        /// The absolute path with symbolic links resolved.
        package var resolvedPath: String
        /// The device and inode of the file.
        package var identity: [UInt64]
    }

    /// Checks that `path` names a readable SQLite file: a regular file once symbolic links are
    /// resolved, with SQLite's header. Nothing blocks: a FIFO is refused before it is opened.
    ///
    /// - Throws: ``SwiftDBAIError`` as ``open(path:readOnly:busyTimeout:maxValueBytes:extensions:)``.
    /// With `readsHeader` false, the file is only examined (`stat`), never opened: a process
    /// whose SQLite connections hold locks on it must not open and close it (POSIX drops a
    /// process's locks on a file when it closes any descriptor of it).
    @discardableResult
    static func checkFile(at path: String, readsHeader: Bool = true) throws(SwiftDBAIError) -> CheckedFile {
        guard !path.isEmpty, let resolved = realpath(path, nil) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || path.isEmpty { throw .fileNotFound(path: path) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(code)))
        }
        let resolvedPath = String(cString: resolved)
        free(resolved)
        var status = stat()
        guard stat(resolvedPath, &status) == 0 else {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw .cannotOpen(path: path, reason: "it is a directory")
        case S_IFIFO:
            throw .cannotOpen(path: path, reason: "it is a FIFO (named pipe), not a database file")
        default:
            throw .cannotOpen(path: path, reason: "it is not a regular file (a device or a socket)")
        }
        let identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
        guard readsHeader else { return CheckedFile(resolvedPath: resolvedPath, identity: identity) }
        guard let handle = FileHandle(forReadingAtPath: resolvedPath) else {
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
        return CheckedFile(resolvedPath: resolvedPath, identity: identity)
    }
}
