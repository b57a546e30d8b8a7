/// An index of a table, as reported by `PRAGMA index_list` and `PRAGMA index_xinfo`.
public struct IndexSchema: Sendable, Hashable, Codable {
    /// One key term of an index.
    public struct Term: Sendable, Hashable, Codable {
        /// The indexed column, or nil for an expression term.
        public var column: String?
        /// True when the term is an expression (`CREATE INDEX … ON t(lower(name))`).
        public var isExpression: Bool
        /// True when the term sorts descending.
        public var isDescending: Bool

        /// Creates an index term.
        public init(column: String?, isExpression: Bool = false, isDescending: Bool = false) {
            self.column = column
            self.isExpression = isExpression
            self.isDescending = isDescending
        }
    }

    /// Where an index comes from.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// `CREATE INDEX`.
        case createIndex = "create_index"
        /// A `UNIQUE` constraint.
        case uniqueConstraint = "unique_constraint"
        /// A `PRIMARY KEY` constraint.
        case primaryKey = "primary_key"
    }

    /// The index name (`sqlite_autoindex_…` for constraint indexes).
    public var name: String
    /// True for unique indexes.
    public var isUnique: Bool
    /// True for partial indexes (`… WHERE …`).
    public var isPartial: Bool
    /// Where the index comes from.
    public var origin: Origin
    /// The key terms, in order.
    public var terms: [Term]
    /// The `CREATE INDEX` statement, or nil for constraint indexes.
    public var sql: String?

    /// The indexed column names (expression terms are left out).
    public var columns: [String] { terms.compactMap(\.column) }

    /// Creates an index description.
    public init(
        name: String, isUnique: Bool, isPartial: Bool = false, origin: Origin = .createIndex,
        terms: [Term], sql: String? = nil
    ) {
        self.name = name
        self.isUnique = isUnique
        self.isPartial = isPartial
        self.origin = origin
        self.terms = terms
        self.sql = sql
    }
}
