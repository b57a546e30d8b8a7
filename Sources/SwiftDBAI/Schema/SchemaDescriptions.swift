/// Descriptions of tables, views and their columns, written by the people who know the data
/// (Datasette's metadata, say), laid over the introspected schema: they appear in
/// ``TableSchema/description`` and ``ColumnSchema/description``, in ``SchemaDescriber``'s DDL and
/// so in a language model's prompt. A description given here replaces a column comment read
/// from the `CREATE TABLE` statement.
///
/// ```swift
/// let descriptions = SchemaDescriptions(tables: [
///     "Album": .init(description: "One row per release", columns: ["Title": "As printed on the cover"]),
/// ])
/// let executor = try SQLExecutor(OpenedDatabase(path: "chinook.sqlite", readOnly: true), descriptions: descriptions)
/// ```
public struct SchemaDescriptions: Sendable, Hashable {
    /// The descriptions of one table or view.
    public struct Table: Sendable, Hashable {
        /// What the table holds; nil to leave it undescribed.
        public var description: String?
        /// Column descriptions, keyed by column name (ASCII case-insensitive).
        public var columns: [String: String]

        /// Creates the descriptions of a table.
        public init(description: String? = nil, columns: [String: String] = [:]) {
            self.description = description
            self.columns = columns
        }
    }

    /// Descriptions keyed by table or view name (ASCII case-insensitive).
    public var tables: [String: Table]

    /// Creates descriptions; none by default.
    public init(tables: [String: Table] = [:]) {
        self.tables = tables
    }

    /// True when nothing is described.
    public var isEmpty: Bool { tables.isEmpty }

    /// Lays the descriptions over introspected tables.
    func apply(to tables: inout [TableSchema]) {
        guard !self.tables.isEmpty else { return }
        let folded = Dictionary(self.tables.map { (SQLIdentifier.foldCase($0.key), $0.value) }) { first, _ in first }
        for position in tables.indices {
            guard let described = folded[SQLIdentifier.foldCase(tables[position].name)] else { continue }
            if let description = described.description { tables[position].description = description }
            guard !described.columns.isEmpty else { continue }
            let columns = Dictionary(described.columns.map { (SQLIdentifier.foldCase($0.key), $0.value) }) { first, _ in first }
            for column in tables[position].columns.indices {
                if let description = columns[SQLIdentifier.foldCase(tables[position].columns[column].name)] {
                    tables[position].columns[column].description = description
                }
            }
        }
    }
}
