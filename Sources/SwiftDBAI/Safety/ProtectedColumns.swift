import Foundation
import GRDBSQLite

/// The rules of a ``ColumnProtection`` resolved against one schema: folded names of the columns
/// that exist, with the derived rules (generated columns, full-text tables).
struct ProtectedColumns: Sendable, Hashable {
    /// Masked columns, folded column names by folded table name.
    private(set) var masked: [String: Set<String>] = [:]
    /// Hidden columns, folded column names by folded table name.
    private(set) var hidden: [String: Set<String>] = [:]
    /// Canonical names of the tables hidden because they would give protected words away:
    /// full-text tables over a protected column, and then every `fts5vocab`/`fts4aux` table.
    private(set) var hiddenTables: Set<String> = []

    /// Why the rules cannot be enforced on this schema, when they cannot: a protected table or
    /// column it does not have (renamed or dropped since the rules were written), or a column of
    /// a primary key rows are stored in the order of (a rowid alias, a `WITHOUT ROWID` key).
    /// Nothing may be read then.
    private(set) var problems: [String] = []

    /// No rule: nothing is masked or hidden.
    static let none = ProtectedColumns()

    private init() {}

    /// Resolves `protection` against `schema`; names the schema does not have are ``problems``.
    init(_ protection: ColumnProtection, schema: DatabaseSchema) {
        guard !protection.isEmpty else { return }
        masked = Self.resolve(protection.masked, in: schema, problems: &problems)
        hidden = Self.resolve(protection.hidden, in: schema, problems: &problems)
        // What a generated column computes may be the protected value itself.
        for table in schema.tables {
            let key = SQLIdentifier.foldCase(table.name)
            let generated = Set(table.columns.filter(\.isGenerated).map { SQLIdentifier.foldCase($0.name) })
            guard !generated.isEmpty else { continue }
            if hidden[key] != nil { hidden[key, default: []].formUnion(generated) }
            if masked[key] != nil { masked[key, default: []].formUnion(generated) }
        }
        for (table, columns) in hidden {
            masked[table]?.subtract(columns)
            if masked[table]?.isEmpty == true { masked[table] = nil }
        }
        let protectedNames = Set(masked.values.joined()).union(hidden.values.joined())
        for table in schema.tables where table.kind == .virtual {
            let module = SQLIdentifier.foldCase(table.virtualTableModule ?? "")
            guard module.hasPrefix("fts") else { continue }
            // A table's columns are read by name, so the names tell; a view may rename them, and a
            // contentless table holds whatever was written to it: either could hold the words.
            let content = Self.fullTextContent(of: table.sql).map(SQLIdentifier.foldCase)
            let readsProtected = content.map { $0.isEmpty || schema.table(named: $0)?.kind == .view } ?? false
            if readsProtected || table.columns.contains(where: { protectedNames.contains(SQLIdentifier.foldCase($0.name)) }) {
                hiddenTables.insert(table.name)
            }
        }
        if !hiddenTables.isEmpty {
            for table in schema.tables where table.kind == .virtual {
                let module = SQLIdentifier.foldCase(table.virtualTableModule ?? "")
                if module == "fts5vocab" || module == "fts4aux" { hiddenTables.insert(table.name) }
            }
        }
    }

    private static func resolve(
        _ rules: [String: Set<String>], in schema: DatabaseSchema, problems: inout [String]
    ) -> [String: Set<String>] {
        var resolved: [String: Set<String>] = [:]
        for (name, columns) in rules.sorted(by: { $0.key < $1.key }) {
            guard let table = schema.table(named: name), table.kind != .view else {
                // A view in its place (the table renamed, a view made under its name) would read
                // the columns through another name, which no rule names.
                problems.append("the protected table \(name) is not a table of the database (renamed, dropped or replaced by a view?)")
                continue
            }
            for name in columns.sorted() {
                guard let column = table.column(named: name) else {
                    problems.append("a protected column of \(table.name) is not in the database (renamed or dropped?)")
                    continue
                }
                if let reason = orderingKey(column, of: table) {
                    problems.append("\(table.name).\(column.name) cannot be masked or hidden: \(reason)")
                    continue
                }
                resolved[SQLIdentifier.foldCase(table.name), default: []].insert(SQLIdentifier.foldCase(column.name))
            }
        }
        return resolved
    }

    /// The `content=` option of a full-text table's `CREATE VIRTUAL TABLE` text (empty for a
    /// contentless table), or nil when it has none (it keeps its own copy).
    static func fullTextContent(of sql: String) -> String? {
        guard let open = sql.firstIndex(of: "(") else { return nil }
        for argument in sql[sql.index(after: open)...].dropLast().split(separator: ",") {
            let parts = argument.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard parts.count == 2, SQLIdentifier.foldCase(parts[0]) == "content" else { continue }
            return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "'\"`[]"))
        }
        return nil
    }

    /// Why rows are stored in the order of this column (so that any read would follow it), or nil.
    static func orderingKey(_ column: ColumnSchema, of table: TableSchema) -> String? {
        guard table.kind == .table, column.primaryKeyPosition != nil else { return nil }
        if table.isWithoutRowID {
            return "it is part of the primary key of a WITHOUT ROWID table, whose rows are stored in its order"
        }
        if table.primaryKey.count == 1, column.declaredType.uppercased() == "INTEGER" {
            return "it is the table's INTEGER PRIMARY KEY (its rowid), which rows are stored and read in the order of"
        }
        return nil
    }

    /// True when no column is masked or hidden.
    var isEmpty: Bool { masked.isEmpty && hidden.isEmpty }

    /// True when the column of the table is masked.
    func isMasked(_ table: String, _ column: String) -> Bool {
        masked[SQLIdentifier.foldCase(table)]?.contains(SQLIdentifier.foldCase(column)) ?? false
    }

    /// True when the column of the table is hidden.
    func isHidden(_ table: String, _ column: String) -> Bool {
        hidden[SQLIdentifier.foldCase(table)]?.contains(SQLIdentifier.foldCase(column)) ?? false
    }

    /// True when some table has a hidden column of this name.
    func isHiddenAnywhere(_ column: String) -> Bool {
        let folded = SQLIdentifier.foldCase(column)
        return hidden.values.contains { $0.contains(folded) }
    }

    /// The hidden columns of a table, folded.
    func hiddenColumns(of table: String) -> Set<String> {
        hidden[SQLIdentifier.foldCase(table)] ?? []
    }

    /// The columns a reading connection's authorizer reads as NULL: the hidden ones, and the
    /// masked ones unless they are revealed.
    func ignoredReads(revealingMasked: Bool) -> ColumnReadMask {
        var columns = hidden
        if !revealingMasked {
            columns.merge(masked) { $0.union($1) }
        }
        return ColumnReadMask(columns)
    }

    /// Refuses what the authorizer cannot make harmless: a write that reads a masked (unless
    /// revealed) or hidden column, a hidden full-text table, the definitions of hidden columns
    /// (`sqlite_schema`, introspection PRAGMAs on their table) and `sqlite_stat4`'s sample keys.
    ///
    /// - Throws: ``SQLRejection``.
    func authorize(_ statement: ClassifiedStatement, revealsMasked: Bool) throws(SQLRejection) {
        guard !isEmpty else { return }
        // Reads only: the triggers that keep a full-text index in step with its table write it.
        if statement.tablesRead.contains(where: hiddenTables.contains) {
            throw SQLRejection(
                .tableNotAllowed,
                "The statement reaches a table that is not accessible (a full-text index over a protected column).")
        }
        if statement.tablesRead.contains(where: { $0.hasPrefix("sqlite_stat") }) {
            throw SQLRejection(
                .tableNotAllowed,
                "SQLite's statistics tables describe the values of indexed columns (sqlite_stat4 holds samples of them); they are not readable where columns are masked or hidden.")
        }
        if !hidden.isEmpty {
            if statement.tablesRead.contains("sqlite_schema") {
                throw SQLRejection(
                    .columnNotAllowed,
                    "The statement reads sqlite_schema, which would show columns that are not accessible; describe the schema instead.")
            }
            if let table = statement.tablesDescribed.sorted().first(where: { hidden[SQLIdentifier.foldCase($0)] != nil }) {
                throw SQLRejection(
                    .columnNotAllowed,
                    "This PRAGMA would list columns of \(table) that are not accessible; describe the schema instead.")
            }
        }
        let writes = statement.operation != .select || !statement.writeOperations.isEmpty
        guard writes else { return }
        // A table's constraints, indexes and triggers act on its protected values: whether a write
        // succeeds, and what it changes, could tell them. A table with a hidden column is never
        // written here; one with a masked column only by a caller who may unmask.
        for table in statement.tablesWritten.keys.sorted() {
            let key = SQLIdentifier.foldCase(table)
            if hidden[key] != nil {
                throw SQLRejection(
                    .columnNotAllowed,
                    "\(table) cannot be written here: it has columns that are not accessible, and its constraints and triggers act on them.")
            }
            if !revealsMasked, masked[key] != nil {
                throw SQLRejection(
                    .columnNotAllowed,
                    "Writing \(table) needs dbai:unmask: it has masked columns, and whether a write succeeds could tell what they hold.")
            }
        }
        for (reads, byTriggers) in [(statement.columnsRead, false), (statement.columnsReadByTriggers, true)] {
            for (table, columns) in reads.sorted(by: { $0.key < $1.key }) {
                let key = SQLIdentifier.foldCase(table)
                let reader = byTriggers ? "A trigger of the write" : "The write"
                if let hidden = hidden[key], columns.contains(where: { hidden.contains(SQLIdentifier.foldCase($0)) }) {
                    throw SQLRejection(
                        .columnNotAllowed,
                        byTriggers
                            ? "\(reader) reads a column of \(table) that is not accessible; it cannot run here."
                            : "The write reads columns of \(table) that are not accessible; name the columns it needs.")
                }
                if !revealsMasked, let masked = masked[key], let column = columns.sorted().first(where: { masked.contains(SQLIdentifier.foldCase($0)) }) {
                    throw SQLRejection(
                        .columnNotAllowed,
                        "\(reader) reads \(table).\(column), which is masked for you (it reads as NULL): a write that reads a masked column (in WHERE, SET, RETURNING, a SELECT or a trigger) needs dbai:unmask.")
                }
            }
        }
    }
}

/// The columns a reading connection reads as NULL during one access, as NUL-terminated UTF-8 for
/// comparison in the authorizer without allocating.
struct ColumnReadMask: Sendable, Hashable {
    /// (table, column) pairs, folded, NUL-terminated.
    let pairs: [ColumnPair]

    struct ColumnPair: Sendable, Hashable {
        let table: [CChar]
        let column: [CChar]
    }

    init(_ columns: [String: Set<String>]) {
        pairs = columns.sorted { $0.key < $1.key }.flatMap { table, names in
            names.sorted().map { ColumnPair(table: Array(table.utf8CString), column: Array($0.utf8CString)) }
        }
    }

    /// True when SQLite must read this column of this table as NULL (ASCII case-insensitive).
    func ignores(table: UnsafePointer<CChar>, column: UnsafePointer<CChar>) -> Bool {
        for pair in pairs {
            let sameTable = pair.table.withUnsafeBufferPointer { sqlite3_stricmp($0.baseAddress, table) == 0 }
            if sameTable, pair.column.withUnsafeBufferPointer({ sqlite3_stricmp($0.baseAddress, column) == 0 }) {
                return true
            }
        }
        return false
    }
}
