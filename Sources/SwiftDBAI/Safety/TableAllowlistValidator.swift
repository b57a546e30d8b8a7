/// Limits every access — reads included — to the listed tables and views.
///
/// Enforced on the compiled statement: a hidden table cannot be read through a view, a subquery,
/// a CTE, a trigger, `PRAGMA table_info` or `sqlite_schema`. A view is readable only when the
/// view **and** every table it reads are listed.
///
/// ```swift
/// let validator = TableAllowlistValidator(["Album", "Artist"])
/// ```
public struct TableAllowlistValidator: QueryValidator {
    /// The allowed tables and views, as given.
    public let allowedTables: Set<String>
    private let folded: Set<String>

    /// Creates a validator that allows only the given tables and views (ASCII case-insensitive).
    public init(_ allowedTables: some Sequence<String>) {
        self.allowedTables = Set(allowedTables)
        self.folded = Set(self.allowedTables.map(SQLIdentifier.foldCase))
    }

    /// True when the table or view is listed.
    public func allows(_ table: String) -> Bool {
        folded.contains(SQLIdentifier.foldCase(table))
    }

    /// Refuses a statement that reaches a table or view that is not listed. The message never
    /// names such a table (it could be one the caller must not learn about), only SQLite's own
    /// internal tables.
    public func validate(_ statement: ClassifiedStatement) throws(SQLRejection) {
        for table in statement.tablesTouched where !allows(table) {
            let allowed = "Allowed tables: \(allowedTables.sorted().joined(separator: ", "))."
            if table == "sqlite_schema" {
                throw SQLRejection(
                    .tableNotAllowed,
                    "The statement reads sqlite_schema, which would reveal tables that are not accessible; describe the schema instead. \(allowed)")
            }
            if table.hasPrefix("sqlite_") {
                throw SQLRejection(.tableNotAllowed, "The statement reads \(table), which is not accessible. \(allowed)")
            }
            throw SQLRejection(
                .tableNotAllowed,
                "The statement reaches a table that is not accessible (through a view, a trigger, a foreign-key action or a PRAGMA that reports on every table). \(allowed)")
        }
    }
}
