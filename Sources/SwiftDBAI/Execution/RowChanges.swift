/// The rows a write changed, each with its values before and after: what an audit log keeps so
/// that a write can be shown, and undone (``SQLExecutor/revert(_:)``).
///
/// Recorded by SQLite's pre-update hook on the writing connection, for every row the write
/// changed — its statements', its triggers' and its foreign-key actions' — in the order each row
/// was first changed. A row changed twice has one entry: its values before the first change and
/// after the last. A row inserted and deleted again by the same write has none.
public struct RowChanges: Sendable, Hashable {
    /// The rows, in the order each was first changed.
    public var rows: [RowChange]
    /// Why ``rows`` does not hold every change of the write (a virtual table was written, more
    /// rows or bytes than a record keeps, a table SQLite gives no values for), or nil when it
    /// does. A write with such a record cannot be undone from it.
    public var incompleteReason: String?

    /// The most rows a record keeps.
    public static let maxRows = 1_000
    /// About the most bytes of values a record keeps (text and blobs by their length, other
    /// values 8 bytes each).
    public static let maxValueBytes = 1 << 20

    public init(rows: [RowChange] = [], incompleteReason: String? = nil) {
        self.rows = rows
        self.incompleteReason = incompleteReason
    }

    /// True when the record holds every change of the write.
    public var isComplete: Bool { incompleteReason == nil }
}

/// One row a write changed.
public struct RowChange: Sendable, Hashable {
    /// The table (its name as the schema spells it).
    public var table: String
    /// The row's rowid, for rowid tables; nil for `WITHOUT ROWID` tables, whose rows are named by
    /// their primary key's values in ``before`` and ``after``.
    public var rowID: Int64?
    /// The row's stored columns before the write, by name; nil when the write inserted it.
    /// Virtual generated columns are never listed; stored generated ones are.
    public var before: [String: SQLValue]?
    /// The row's stored columns after the write; nil when the write deleted it.
    public var after: [String: SQLValue]?
    /// The columns the executor's ``ColumnProtection`` masks or hides, its derived rules applied
    /// (a generated column over a protected one is protected too). Their values are here as
    /// they are: a journal that writes them where others read them writes them masked.
    public var protectedColumns: Set<String>

    public init(
        table: String, rowID: Int64?, before: [String: SQLValue]?, after: [String: SQLValue]?, protectedColumns: Set<String> = []
    ) {
        self.table = table
        self.rowID = rowID
        self.before = before
        self.after = after
        self.protectedColumns = protectedColumns
    }

    /// What the write did to the row.
    public var kind: SQLOperation {
        switch (before, after) {
        case (nil, _): .insert
        case (_, nil): .delete
        default: .update
        }
    }
}
