import Foundation
import GRDB

/// What a write changes, as its preview saw it: the rows it updates, deletes or inserts (by table
/// and rowid, triggers and foreign-key actions included), the content those rowids held at that
/// moment, and the number of rows the statements report.
///
/// A confirmed write runs only when it still matches the signature of the preview the user
/// confirmed (``SQLExecutor/execute(_:expecting:confirmed:matching:)``): compared inside the
/// write's own transaction, before anything is committed. SQLite reports no rowid for tables
/// without rowid and virtual tables, nor for a row that `REPLACE` deletes because it conflicts on
/// another unique column than the rowid: those are covered by the row count only.
public struct ChangeSignature: Sendable, Hashable {
    /// Rows the statements would insert, update or delete themselves.
    public var rowsAffected: Int
    /// Rowids updated, deleted or inserted, per table (canonical names), sorted.
    var changedRowIDs: [String: [Int64]]
    /// A digest of the content of those rows before the write (an inserted rowid is usually
    /// absent; one that `REPLACE` overwrites is not).
    var contentDigest: Int

    /// The number of rows, in every table, that the signature covers.
    public var rowCount: Int { changedRowIDs.values.reduce(0) { $0 + $1.count } }

    /// A digest of the current content of the given rows (missing rows count as missing).
    ///
    /// Digests are comparable within one process only.
    ///
    /// - Throws: a GRDB `DatabaseError`.
    static func digest(of rowIDs: [String: [Int64]], schema: DatabaseSchema, db: Database) throws -> Int {
        var hasher = Hasher()
        try RowWalk.visit(rowIDs, schema: schema, db: db) { event in
            switch event {
            case .table(let name, let count):
                hasher.combine(name)
                hasher.combine(count)
            case .row(let row):
                hasher.combine(row.count)
                for index in 0..<row.count {
                    hasher.combine(SQLValue(row[index] as DatabaseValue))
                }
            case .chunkEnd:
                hasher.combine(-1)
            }
        }
        return hasher.finalize()
    }
}
