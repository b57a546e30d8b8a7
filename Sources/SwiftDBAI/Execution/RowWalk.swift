import GRDB

/// Reads the rows of rowid tables by rowid, in a fixed order, for digests of their content:
/// tables by name, rows by rowid in chunks of 500, `rowid` first then every column.
enum RowWalk {
    /// What a walk meets, in order.
    enum Event {
        /// A table and the number of rowids asked for (its rows follow, unless it has no rowid).
        case table(String, count: Int)
        /// One row found: its rowid, then its columns.
        case row(Row)
        /// The end of a chunk of rowids.
        case chunkEnd
    }

    /// Rowids asked for in one statement.
    static let chunkSize = 500

    /// Calls `visit` for each table, each row found and each chunk's end. Tables that are not
    /// rowid tables of the schema are named but not read; missing rows are skipped.
    ///
    /// - Throws: a GRDB `DatabaseError`.
    static func visit(
        _ rowIDs: [String: [Int64]], schema: DatabaseSchema, db: Database, _ visit: (Event) throws -> Void
    ) throws {
        for table in rowIDs.keys.sorted() {
            let ids = rowIDs[table] ?? []
            try visit(.table(table, count: ids.count))
            guard let described = schema.table(named: table), described.kind == .table, !described.isWithoutRowID else {
                continue
            }
            let start = ids.startIndex
            for offset in stride(from: 0, to: ids.count, by: chunkSize) {
                let chunk = Array(ids[(start + offset)..<(start + min(ids.count, offset + chunkSize))])
                let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT rowid, * FROM main.\(SQLIdentifier.quote(described.name)) WHERE rowid IN (\(placeholders)) ORDER BY rowid",
                    arguments: StatementArguments(chunk))
                while let row = try rows.next() {
                    try visit(.row(row))
                }
                try visit(.chunkEnd)
            }
        }
    }
}
