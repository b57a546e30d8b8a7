import SwiftDBAI

/// Cuts a list of catalog entries into pages that fit a number of bytes, counting the rows of
/// only the tables a page shows.
struct CatalogPager: Sendable {
    let executor: SQLExecutor

    /// How many tables' rows are counted at a time while a page fills.
    static let countWindow = 128

    /// The entries from `offset` that fit `bytes` (at least one, cut to fit when it must), with
    /// their row counts, and where the next page starts.
    ///
    /// - Throws: ``SwiftDBAIError``.
    func page(of entries: [CatalogEntry], from offset: Int, bytes: Int) async throws(SwiftDBAIError) -> (entries: [CatalogEntry], end: Int) {
        var page: [CatalogEntry] = []
        var used = 0
        var position = offset
        while position < entries.count {
            let window = Array(entries[position..<min(entries.count, position + Self.countWindow)])
            let counts = try await executor.rowCounts(of: window.map(\.table.name))
            for var entry in window {
                entry.table.rowCount = counts[SQLIdentifier.foldCase(entry.table.name)]
                let size = entry.size
                if used + size <= bytes {
                    page.append(entry)
                    used += size
                } else if page.isEmpty, let fitted = entry.fitted(to: bytes) {
                    page.append(fitted)
                    return (page, position + 1)
                } else {
                    return (page, position)
                }
                position += 1
            }
        }
        return (page, position)
    }
}
