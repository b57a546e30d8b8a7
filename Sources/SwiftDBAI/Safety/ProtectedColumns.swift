import GRDBSQLite

/// The rules of a ``ColumnProtection`` resolved against one schema: folded names of the columns
/// that exist, with the derived rules (generated columns, full-text tables).
struct ProtectedColumns: Sendable, Hashable {
    /// Masked columns, folded column names by folded table name.
    private(set) var masked: [String: Set<String>] = [:]
    /// Hidden columns, folded column names by folded table name.
    private(set) var hidden: [String: Set<String>] = [:]
    /// Masked columns a UNIQUE index or the primary key covers, by folded table name: writing
    /// one would tell, by a constraint failure, whether a value is already there.
    private(set) var uniqueMasked: [String: Set<String>] = [:]
    /// Canonical names of the tables hidden because they would give protected words away:
    /// full-text tables over a protected column, and then every `fts5vocab`/`fts4aux` table.
    private(set) var hiddenTables: Set<String> = []

    /// No rule: nothing is masked or hidden.
    static let none = ProtectedColumns()

    private init() {}

    /// Resolves `protection` against `schema`; names the schema does not have are left out.
    init(_ protection: ColumnProtection, schema: DatabaseSchema) {
        guard !protection.isEmpty else { return }
        masked = Self.resolve(protection.masked, in: schema)
        hidden = Self.resolve(protection.hidden, in: schema)
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
        for table in schema.tables {
            let key = SQLIdentifier.foldCase(table.name)
            guard let columns = masked[key] else { continue }
            var unique = Set(table.indexes.filter(\.isUnique).flatMap(\.columns).map(SQLIdentifier.foldCase))
            unique.formUnion(table.primaryKey.map(SQLIdentifier.foldCase))
            let covered = columns.intersection(unique)
            if !covered.isEmpty { uniqueMasked[key] = covered }
        }
        let protectedNames = Set(masked.values.joined()).union(hidden.values.joined())
        for table in schema.tables where table.kind == .virtual {
            let module = SQLIdentifier.foldCase(table.virtualTableModule ?? "")
            if module.hasPrefix("fts"), table.columns.contains(where: { protectedNames.contains(SQLIdentifier.foldCase($0.name)) }) {
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

    private static func resolve(_ rules: [String: Set<String>], in schema: DatabaseSchema) -> [String: Set<String>] {
        var resolved: [String: Set<String>] = [:]
        for (name, columns) in rules {
            guard let table = schema.table(named: name) else { continue }
            let found = columns.compactMap { table.column(named: $0).map { SQLIdentifier.foldCase($0.name) } }
            if !found.isEmpty { resolved[SQLIdentifier.foldCase(table.name), default: []].formUnion(found) }
        }
        return resolved
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
        if statement.tablesTouched.contains(where: hiddenTables.contains) {
            throw SQLRejection(
                .tableNotAllowed,
                "The statement reaches a table that is not accessible (a full-text index over a protected column).")
        }
        if statement.tablesRead.contains(where: { $0.hasPrefix("sqlite_stat") && $0 != "sqlite_stat1" }) {
            throw SQLRejection(.tableNotAllowed, "sqlite_stat4 holds sample values of indexed columns; it is not readable here.")
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
        if !revealsMasked {
            // A constraint failure would tell whether a masked value is already in the table.
            if let table = statement.tablesWritten.keys.sorted().first(where: {
                uniqueMasked[SQLIdentifier.foldCase($0)] != nil && statement.tablesWritten[$0]?.contains(.insert) == true
            }), let column = uniqueMasked[SQLIdentifier.foldCase(table)]?.sorted().first {
                throw SQLRejection(
                    .columnNotAllowed,
                    "Inserting into \(table) needs dbai:unmask: its masked column \(column) must be unique, and a refused duplicate would tell what it holds.")
            }
            for (table, columns) in statement.columnsSet.sorted(by: { $0.key < $1.key }) {
                if let unique = uniqueMasked[SQLIdentifier.foldCase(table)],
                   let column = columns.sorted().first(where: { unique.contains(SQLIdentifier.foldCase($0)) }) {
                    throw SQLRejection(
                        .columnNotAllowed,
                        "Setting \(table).\(column) needs dbai:unmask: the masked column must be unique, and a refused duplicate would tell what it holds.")
                }
            }
        }
        for (table, columns) in statement.columnsRead.sorted(by: { $0.key < $1.key }) {
            let key = SQLIdentifier.foldCase(table)
            let folded = Set(columns.map(SQLIdentifier.foldCase))
            if let hidden = hidden[key], !hidden.isDisjoint(with: folded) {
                throw SQLRejection(.invalidSQL, "SQLite cannot compile the statement: it reads a column \(table) does not have.")
            }
            if !revealsMasked, let masked = masked[key], let column = columns.sorted().first(where: { masked.contains(SQLIdentifier.foldCase($0)) }) {
                throw SQLRejection(
                    .columnNotAllowed,
                    "The write reads \(table).\(column), which is masked for you (it reads as NULL): a write may set a masked column, not read it (in WHERE, SET, RETURNING or a SELECT). Filter on other columns.")
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

    /// True when nothing is read as NULL.
    var isEmpty: Bool { pairs.isEmpty }

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
