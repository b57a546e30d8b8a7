/// Columns whose values callers may not read: a **masked** column reads as NULL (in the result,
/// in `WHERE`, in functions, through views and CTEs) unless the executor reveals masked columns;
/// a **hidden** column is absent for everyone (not in the schema, unknown to statements, never
/// in a result).
///
/// Enforced by SQLite's authorizer on the connections that read (it answers `SQLITE_IGNORE` for
/// the column, so SQLite reads NULL), and by the classifier for writes: a table with a masked
/// column is written only when masked columns are revealed, one with a hidden column never, and a
/// write that reads a masked column (its `WHERE`, a `SET` expression, `RETURNING`, an `INSERT …
/// SELECT`, a trigger) is refused unless they are revealed, since what it changes would tell the
/// value. A rowid alias or a `WITHOUT ROWID` key cannot be protected, and rules that name what
/// the schema does not have stop every access (fail closed).
///
/// Derived rules, so that nothing computed from a protected column gives it away:
/// - the generated columns of a table with a masked (hidden) column are masked (hidden) too;
/// - a view that reads a hidden column is hidden;
/// - a full-text table (FTS3/4/5) with a column named as a protected column, its shadow tables
///   and the `fts5vocab`/`fts4aux` tables of the database are hidden: `MATCH` and the index's
///   tokens would tell the words, whatever the authorizer answers for the column;
/// - a full-text table whose content is a view or nothing (contentless) is hidden too;
/// - SQLite's statistics tables (`sqlite_stat4` holds sample index keys) are not readable.
///
/// ```swift
/// var policy = SafetyPolicy(allowlist: .readOnly)
/// policy.columnProtection = ColumnProtection(masked: ["users": ["email"]], hidden: ["users": ["ssn"]])
/// ```
public struct ColumnProtection: Sendable, Hashable {
    /// Masked columns by table (names as given, ASCII case-insensitive).
    public var masked: [String: Set<String>]
    /// Hidden columns by table (names as given, ASCII case-insensitive).
    public var hidden: [String: Set<String>]
    /// True when masked columns read in the clear (a caller granted `dbai:unmask`). Hidden
    /// columns stay hidden.
    public var revealsMasked: Bool

    /// Creates protection rules; none by default.
    public init(masked: [String: Set<String>] = [:], hidden: [String: Set<String>] = [:], revealsMasked: Bool = false) {
        self.masked = masked.filter { !$0.value.isEmpty }
        self.hidden = hidden.filter { !$0.value.isEmpty }
        self.revealsMasked = revealsMasked
    }

    /// True when no column is masked or hidden.
    public var isEmpty: Bool { masked.isEmpty && hidden.isEmpty }

    /// True when some column is masked.
    public var masksColumns: Bool { !masked.isEmpty }
}
