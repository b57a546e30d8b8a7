import GRDBSQLite
import SwiftDBAIPrimitives

/// The SQLite authorizer of a reading connection when columns are masked or hidden: while an
/// access runs, SQLite reads the columns of its ``ColumnReadMask`` as NULL (`SQLITE_IGNORE`),
/// wherever the statement reads them — the result, `WHERE`, `ORDER BY`, functions, views, CTEs,
/// subqueries — so a masked value can be neither returned nor probed.
///
/// It replaces GRDB's authorizer on that connection, which only reports what statements do to
/// GRDB's transaction observers (a reading connection has none). The mask is set at the start of
/// each access, on the connection's own queue, before any statement of the access is prepared;
/// SQLite calls the authorizer again whenever it recompiles a statement, under the same mask.
final class ColumnMaskAuthorizer: Sendable {
    private let current = Mutex(ColumnReadMask([:]))

    /// Installs the authorizer on a connection, which must not outlive it.
    func install(on connection: OpaquePointer) {
        sqlite3_set_authorizer(connection, { context, code, table, column, _, _ in
            guard code == SQLITE_READ, let context, let table, let column else { return SQLITE_OK }
            let authorizer = Unmanaged<ColumnMaskAuthorizer>.fromOpaque(context).takeUnretainedValue()
            return authorizer.current.withLock { $0.ignores(table: table, column: column) } ? SQLITE_IGNORE : SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` with `mask` in force. Every access of a reading connection goes through here
    /// (``ReaderPool/read(_:masking:)``), so no statement compiles under another access's mask.
    func withMask<T>(_ mask: ColumnReadMask, _ body: () throws -> T) rethrows -> T {
        current.withLock { $0 = mask }
        defer { current.withLock { $0 = ColumnReadMask([:]) } }
        return try body()
    }
}
