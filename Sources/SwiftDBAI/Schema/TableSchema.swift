/// A table, view or virtual table of the main database.
public struct TableSchema: Sendable, Hashable, Codable, Identifiable {
    /// The kind of schema object.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// An ordinary table.
        case table
        /// A view.
        case view
        /// A virtual table (FTS5, R*Tree, …).
        case virtual
    }

    /// The name, exactly as declared (spaces, quotes and non-ASCII characters included).
    public var name: String
    /// Table, view or virtual table.
    public var kind: Kind
    /// The columns, in declaration order, hidden and generated ones included.
    public var columns: [ColumnSchema]
    /// Foreign keys declared by the table.
    public var foreignKeys: [ForeignKeySchema]
    /// Indexes of the table, constraint indexes included.
    public var indexes: [IndexSchema]
    /// True for `WITHOUT ROWID` tables.
    public var isWithoutRowID: Bool
    /// True for `STRICT` tables.
    public var isStrict: Bool
    /// The module of a virtual table (`fts5`, `rtree`, …), nil otherwise.
    public var virtualTableModule: String?
    /// An approximate row count: exact up to ``RowCountEstimate/exactLimit`` rows; nil for views.
    public var rowCount: RowCountEstimate?
    /// The `CREATE` statement stored in `sqlite_schema`.
    public var sql: String
    /// What the table or view holds, in words (from ``SchemaDescriptions``); nil when unknown.
    public var description: String?

    /// The name, which identifies the object within its database.
    public var id: String { name }

    /// The primary-key columns in key order (empty for views and rowid-only tables).
    public var primaryKey: [String] {
        columns.filter { $0.primaryKeyPosition != nil }
            .sorted { ($0.primaryKeyPosition ?? 0) < ($1.primaryKeyPosition ?? 0) }
            .map(\.name)
    }

    /// True when a column is named `rowid`, `oid` or `_rowid_`: in a rowid table, that name then
    /// means the column, not the rowid.
    package var hasColumnNamedLikeRowID: Bool {
        columns.contains { ["rowid", "oid", "_rowid_"].contains(SQLIdentifier.foldCase($0.name)) }
    }

    /// Returns the column with the given name (SQLite's ASCII case-insensitive rules), or nil.
    public func column(named name: String) -> ColumnSchema? {
        let key = SQLIdentifier.foldCase(name)
        return columns.first { SQLIdentifier.foldCase($0.name) == key }
    }

    /// Creates a table description.
    public init(
        name: String, kind: Kind, columns: [ColumnSchema], foreignKeys: [ForeignKeySchema] = [],
        indexes: [IndexSchema] = [], isWithoutRowID: Bool = false, isStrict: Bool = false,
        virtualTableModule: String? = nil, rowCount: RowCountEstimate? = nil, sql: String = "",
        description: String? = nil
    ) {
        self.description = description
        self.name = name
        self.kind = kind
        self.columns = columns
        self.foreignKeys = foreignKeys
        self.indexes = indexes
        self.isWithoutRowID = isWithoutRowID
        self.isStrict = isStrict
        self.virtualTableModule = virtualTableModule
        self.rowCount = rowCount
        self.sql = sql
    }
}

/// An approximate number of rows.
public struct RowCountEstimate: Sendable, Hashable, Codable {
    /// Tables up to this many rows are counted exactly; larger ones are estimated.
    public static let exactLimit = 10_000

    /// The number of rows, exact when ``isExact`` is true.
    public var count: Int
    /// True when ``count`` was counted rather than estimated.
    public var isExact: Bool

    /// Where ``count`` comes from.
    public var source: Source

    /// Where a row count comes from; none of them scans more than
    /// ``RowCountEstimate/exactLimit`` + 1 rows.
    public enum Source: String, Sendable, Hashable, Codable {
        /// Counted: the table holds at most ``RowCountEstimate/exactLimit`` rows.
        case counted
        /// Recorded by `ANALYZE` in `sqlite_stat1` (as of the last `ANALYZE`).
        case statistics = "sqlite_stat1"
        /// Beyond the limit: the span of the rowids (deleted rows make it an overestimate).
        case rowidRange = "rowid_range"
        /// Beyond the limit, in a `WITHOUT ROWID` table: ``RowCountEstimate/count`` rows at least.
        case lowerBound = "at_least"
    }

    /// Creates an estimate.
    public init(count: Int, isExact: Bool, source: Source? = nil) {
        self.count = count
        self.isExact = isExact
        self.source = source ?? (isExact ? .counted : .rowidRange)
    }

    private enum CodingKeys: String, CodingKey { case count, isExact, source }

    /// Decodes an estimate; `source`, newer than the others, may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            count: try container.decode(Int.self, forKey: .count), isExact: try container.decode(Bool.self, forKey: .isExact),
            source: try container.decodeIfPresent(Source.self, forKey: .source))
    }

    /// The count as a reader should see it: `42`, `about 120000`, `more than 10000`.
    public var phrase: String {
        switch source {
        case .counted: "\(count)"
        case .lowerBound: "more than \(count - 1)"
        case .statistics, .rowidRange: "about \(count)"
        }
    }
}
