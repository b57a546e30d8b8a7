/// What SQLite's compiler says one statement does.
///
/// Produced by ``SQLStatementClassifier`` from the compiled statement, never from the text.
public struct ClassifiedStatement: Sendable, Hashable {
    /// The statement text, as given.
    public var sql: String
    /// The main operation: `select` for reads; otherwise the first write the statement itself
    /// performs (an upsert is an `insert`).
    public var operation: SQLOperation
    /// Tables and views read, views expanded to the tables they read (canonical names).
    public var tablesRead: Set<String>
    /// The columns the statement reads, by table (canonical names; through views, the tables'
    /// columns), as SQLite's compiler reports them: the result's, the conditions', the joins'. A
    /// table the statement reads for no column (`SELECT COUNT(*) FROM t`) is a key with no
    /// columns; table-valued pragma functions are not tables. Reads made by triggers are not
    /// included; a write's reads include the parent rows its foreign keys check.
    public var columnsRead: [String: Set<String>] = [:]
    /// Tables whose columns an introspection PRAGMA lists (`PRAGMA table_info(t)`,
    /// `pragma_table_info(?)`: every table, since the argument is known only when it runs).
    public var tablesDescribed: Set<String> = []
    /// The columns the triggers a write fires read, by table (canonical names).
    public var columnsReadByTriggers: [String: Set<String>] = [:]
    /// The result columns that come straight from a hidden column (``ColumnProtection``), left
    /// out of what is returned.
    var hiddenResultColumns: [Int] = []
    /// Tables written and how, including writes made by triggers and foreign-key actions.
    public var tablesWritten: [String: Set<SQLOperation>]
    /// True when SQLite reports the statement makes no direct change to the database file.
    public var isReadOnly: Bool
    /// The number of result columns (a read returns at least one).
    public var columnCount: Int
    /// The number of parameters (`?`, `?1`, `:name`) the statement expects.
    public var parameterCount: Int
    /// The names of named parameters (`:name`, `@name`, `$name`), in order; nil for positional ones.
    public var parameterNames: [String?]

    /// Every write operation the statement may perform, triggers and foreign-key actions included.
    public var writeOperations: Set<SQLOperation> {
        tablesWritten.values.reduce(into: Set()) { $0.formUnion($1) }
    }

    /// Every operation the statement may perform: reads and writes.
    public var operations: Set<SQLOperation> {
        var operations = writeOperations
        if operation == .select || !tablesRead.isEmpty { operations.insert(.select) }
        return operations
    }

    /// True when the statement may delete rows, directly or through triggers or foreign keys.
    public var isDestructive: Bool {
        writeOperations.contains(.delete)
    }

    /// Every table the statement touches, read or written, sorted.
    public var tablesTouched: [String] {
        Set(tablesRead).union(tablesWritten.keys).sorted()
    }

    /// Creates a classification. Normally made by ``SQLStatementClassifier``.
    public init(
        sql: String, operation: SQLOperation, tablesRead: Set<String> = [],
        tablesWritten: [String: Set<SQLOperation>] = [:], isReadOnly: Bool, columnCount: Int,
        parameterCount: Int = 0, parameterNames: [String?] = []
    ) {
        self.sql = sql
        self.operation = operation
        self.tablesRead = tablesRead
        self.tablesWritten = tablesWritten
        self.isReadOnly = isReadOnly
        self.columnCount = columnCount
        self.parameterCount = parameterCount
        self.parameterNames = parameterNames
    }
}
