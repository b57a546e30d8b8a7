import GRDB
import GRDBSQLite

extension SQLExecutor {
    /// Opens the database file afresh, read-only, and reads its header: a readiness probe. It
    /// does not wait behind the executor's statements (its connections may still read a file
    /// that was deleted or replaced since), and a file another connection has locked for longer
    /// than `busyTimeout` counts as readable: it is there, being written.
    ///
    /// - Throws: ``SwiftDBAIError`` when the file is missing, is not a database, or cannot be read.
    public func checkReadable(busyTimeout: Duration = .milliseconds(100)) throws(SwiftDBAIError) {
        // Examined, never opened outside SQLite: closing a descriptor of the file would drop the
        // locks the executor's connections hold on it.
        let file = try DatabaseOpener.checkFile(at: path, readsHeader: false)
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        let opened = sqlite3_open_v2(file.resolvedPath, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let connection else {
            throw .cannotOpen(path: path, reason: connection.map { String(cString: sqlite3_errmsg($0)) } ?? "SQLite error \(opened)")
        }
        sqlite3_busy_timeout(connection, Int32(clamping: Int(busyTimeout.seconds * 1_000)))
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        var code = sqlite3_prepare_v2(connection, "PRAGMA schema_version", -1, &statement, nil)
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        switch code & 0xff {
        case SQLITE_ROW, SQLITE_BUSY, SQLITE_LOCKED:
            return
        default:
            throw .cannotOpen(path: path, reason: String(cString: sqlite3_errmsg(connection)))
        }
    }

    /// True when SQLite compiles `sql` as a statement that writes (against the whole schema,
    /// whatever the policy): a refused read whose statement would have written is a write
    /// attempt for the audit log. False when it does not compile or the schema cannot be read.
    package func compilesAsWrite(_ sql: String) async -> Bool {
        (try? await access { db in try self.schemaCache.current(db).classifier.compilesAsWrite(sql) }) ?? false
    }
}
