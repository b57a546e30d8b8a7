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

    public func validate(_ statement: ClassifiedStatement) throws(SQLRejection) {
        for table in statement.tablesTouched where !allows(table) {
            let hint = table == "sqlite_schema"
                ? "Reading sqlite_schema would reveal hidden tables; describe the schema instead."
                : "Allowed tables: \(allowedTables.sorted().joined(separator: ", "))."
            throw SQLRejection(.tableNotAllowed, "The statement touches \(table), which is not accessible. \(hint)")
        }
    }
}
