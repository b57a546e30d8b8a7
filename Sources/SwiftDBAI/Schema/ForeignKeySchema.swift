/// A foreign key of a table, possibly spanning several columns.
public struct ForeignKeySchema: Sendable, Hashable, Codable {
    /// The referencing columns, in key order.
    public var columns: [String]
    /// The referenced table.
    public var referencedTable: String
    /// The referenced columns, in key order. When the DDL names none, these are the referenced
    /// table's primary-key columns.
    public var referencedColumns: [String]
    /// The `ON UPDATE` action (`NO ACTION`, `CASCADE`, `SET NULL`, `SET DEFAULT`, `RESTRICT`).
    public var onUpdate: String
    /// The `ON DELETE` action.
    public var onDelete: String

    /// Creates a foreign key description.
    public init(
        columns: [String], referencedTable: String, referencedColumns: [String],
        onUpdate: String = "NO ACTION", onDelete: String = "NO ACTION"
    ) {
        self.columns = columns
        self.referencedTable = referencedTable
        self.referencedColumns = referencedColumns
        self.onUpdate = onUpdate
        self.onDelete = onDelete
    }
}
