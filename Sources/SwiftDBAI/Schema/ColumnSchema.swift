/// One column of a table or view, as reported by `PRAGMA table_xinfo`.
public struct ColumnSchema: Sendable, Hashable, Codable {
    /// How a column takes part in the table's visible row.
    public enum Visibility: String, Sendable, Hashable, Codable {
        /// An ordinary column.
        case normal
        /// A hidden column of a virtual table.
        case hidden
        /// A generated column computed when read (`GENERATED ALWAYS AS (…) VIRTUAL`).
        case generatedVirtual = "generated_virtual"
        /// A generated column stored in the row (`GENERATED ALWAYS AS (…) STORED`).
        case generatedStored = "generated_stored"
    }

    /// The column name, exactly as declared.
    public var name: String
    /// The declared type (`INTEGER`, `NVARCHAR(160)`, …); empty when none was declared.
    public var declaredType: String
    /// True when the column has a `NOT NULL` constraint.
    public var isNotNull: Bool
    /// The default value as SQL text (`'abc'`, `0`, `CURRENT_TIMESTAMP`), or nil.
    public var defaultValue: String?
    /// The 1-based position of the column in the primary key, or nil when not part of it.
    public var primaryKeyPosition: Int?
    /// Whether the column is ordinary, hidden or generated.
    public var visibility: Visibility
    /// What the column holds, in words: from a comment beside its definition in the `CREATE TABLE`
    /// statement, or from ``SchemaDescriptions`` (which take precedence). Nil when neither says.
    public var description: String?

    /// True when the column is masked (``ColumnProtection``): it reads as NULL unless the
    /// executor reveals masked columns. Not encoded.
    public var isMasked: Bool = false

    /// True for generated columns, which cannot be written.
    public var isGenerated: Bool { visibility == .generatedVirtual || visibility == .generatedStored }

    /// Creates a column description.
    public init(
        name: String, declaredType: String, isNotNull: Bool = false, defaultValue: String? = nil,
        primaryKeyPosition: Int? = nil, visibility: Visibility = .normal, description: String? = nil
    ) {
        self.description = description
        self.name = name
        self.declaredType = declaredType
        self.isNotNull = isNotNull
        self.defaultValue = defaultValue
        self.primaryKeyPosition = primaryKeyPosition
        self.visibility = visibility
    }

    /// ``isMasked`` is not encoded: it is how a policy shows the schema, not part of it.
    enum CodingKeys: String, CodingKey {
        case name, declaredType, isNotNull, defaultValue, primaryKeyPosition, visibility, description
    }
}
