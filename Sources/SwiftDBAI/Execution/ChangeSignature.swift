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
        for table in rowIDs.keys.sorted() {
            let ids = rowIDs[table] ?? []
            hasher.combine(table)
            hasher.combine(ids.count)
            guard let described = schema.table(named: table), described.kind == .table, !described.isWithoutRowID else {
                continue
            }
            let start = ids.startIndex
            for offset in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[(start + offset)..<(start + min(ids.count, offset + 500))])
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT rowid, * FROM main.\(SQLIdentifier.quote(described.name)) WHERE rowid IN (\(placeholders)) ORDER BY rowid",
                    arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    hasher.combine(row.count)
                    for index in 0..<row.count {
                        hasher.combine(SQLValue(row[index] as DatabaseValue))
                    }
                }
                hasher.combine(-1)  // chunk boundary
            }
        }
        return hasher.finalize()
    }
}
