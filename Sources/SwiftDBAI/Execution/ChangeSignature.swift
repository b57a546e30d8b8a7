import Foundation
import GRDB
import SwiftDBAIPrimitives

/// What a write changes, as its preview saw it: the rows it updates, deletes or inserts (by table
/// and rowid, triggers and foreign-key actions included), the content those rowids held at that
/// moment, and the number of rows the statements report.
///
/// A confirmed write runs only when it still matches the signature of the preview the user
/// confirmed (``SQLExecutor/execute(_:expecting:confirmed:matching:)``): compared inside the
/// write's own transaction, before anything is committed. SQLite reports no rowid for tables
/// without rowid and virtual tables, nor for a row that `REPLACE` deletes because it conflicts on
/// another unique column than the rowid: those are covered by the row count only.
public struct ChangeSignature: Sendable, Hashable, Codable {
    /// Rows the statements would insert, update or delete themselves.
    public var rowsAffected: Int
    /// Rowids updated, deleted or inserted, per table (canonical names), sorted.
    var changedRowIDs: [String: [Int64]]
    /// The SHA-256 of the content of those rows before the write (an inserted rowid is usually
    /// absent; one that `REPLACE` overwrites is not), the same in every process: a replica can
    /// check a signature another one made.
    var contentDigest: Data

    /// The number of rows, in every table, that the signature covers.
    public var rowCount: Int { changedRowIDs.values.reduce(0) { $0 + $1.count } }

    /// The SHA-256 of the whole signature (rows reported, rowids, content), hex: the same for
    /// equal signatures in every process.
    package var digest: String {
        var digest = ContentSHA256()
        digest.add(Int64(rowsAffected))
        for table in changedRowIDs.keys.sorted() {
            digest.add(table)
            let rowIDs = changedRowIDs[table] ?? []
            digest.add(Int64(rowIDs.count))
            for rowID in rowIDs { digest.add(rowID) }
        }
        digest.add(contentDigest)
        return Hexadecimal.string(digest.finalize())
    }

    /// The SHA-256 of the current content of the given rows (missing rows count as missing).
    ///
    /// - Throws: a GRDB `DatabaseError`.
    static func digest(of rowIDs: [String: [Int64]], schema: DatabaseSchema, db: Database) throws -> Data {
        var digest = ContentSHA256()
        try RowWalk.visit(rowIDs, schema: schema, db: db) { event in
            switch event {
            case .table(let name, let count):
                digest.add(name)
                digest.add(Int64(count))
            case .row(let row):
                digest.add(Int64(row.count))
                for index in 0..<row.count {
                    digest.add(SQLValue(row[index] as DatabaseValue))
                }
            case .chunkEnd:
                digest.add(Int64(-1))
            }
        }
        return digest.finalize()
    }
}
