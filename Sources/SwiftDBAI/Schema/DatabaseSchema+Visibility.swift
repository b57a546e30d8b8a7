extension DatabaseSchema {
    /// The schema as callers who may see only `visibleNames` see it: the other tables and views
    /// left out, foreign keys that lead to them removed (a table's `CREATE` text is then written
    /// anew from its columns and remaining keys, since the original names the hidden table),
    /// and no triggers (their bodies may name anything).
    ///
    /// - Parameter visibleNames: canonical names, nil when nothing is hidden.
    package func visible(to visibleNames: Set<String>?) -> DatabaseSchema {
        guard let visibleNames else { return self }
        var tables: [TableSchema] = []
        for var table in self.tables where visibleNames.contains(table.name) {
            let keys = table.foreignKeys.filter { key in
                self.table(named: key.referencedTable).map { visibleNames.contains($0.name) } ?? true
            }
            if keys.count != table.foreignKeys.count {
                table.foreignKeys = keys
                table.sql = table.regeneratedSQL()
            }
            tables.append(table)
        }
        return DatabaseSchema(
            tables: tables, schemaVersion: schemaVersion,
            shadowTableOwners: shadowTableOwners.filter { visibleNames.contains($0.value) }, triggers: [])
    }
}

extension DatabaseSchema {
    /// The schema without its hidden columns (nor the indexes and foreign keys that use them; a
    /// table's `CREATE` text written anew from what is left) and with its masked columns marked.
    ///
    /// - Parameter forNames: for the copy names resolve on: the indexes over a masked column (and
    ///   the expression indexes of its table) are left out too, so that `INDEXED BY` cannot make a
    ///   read follow a masked column's order.
    func protected(by protection: ProtectedColumns, forNames: Bool = false) -> DatabaseSchema {
        guard !protection.isEmpty else { return self }
        var schema = self
        for position in schema.tables.indices {
            var table = schema.tables[position]
            for column in table.columns.indices where protection.isMasked(table.name, table.columns[column].name) {
                table.columns[column].isMasked = true
            }
            let hidden = protection.hiddenColumns(of: table.name)
            let masked = protection.masked[SQLIdentifier.foldCase(table.name)] ?? []
            let keys = table.foreignKeys.filter { key in
                !key.columns.contains { hidden.contains(SQLIdentifier.foldCase($0)) }
                    && !key.referencedColumns.contains { protection.isHidden(key.referencedTable, $0) }
            }
            // In the names copy, an index over a masked column would let INDEXED BY follow its
            // order, and a UNIQUE constraint or key of the original text would make one again.
            let dropsMaskedIndexes = forNames && !masked.isEmpty
            if !hidden.isEmpty || keys.count != table.foreignKeys.count || dropsMaskedIndexes {
                let indexed = dropsMaskedIndexes ? hidden.union(masked) : hidden
                table.columns.removeAll { hidden.contains(SQLIdentifier.foldCase($0.name)) }
                table.indexes.removeAll { index in
                    index.terms.contains { $0.isExpression } || index.columns.contains { indexed.contains(SQLIdentifier.foldCase($0)) }
                }
                table.foreignKeys = keys
                if table.kind == .table {
                    table.sql = table.regeneratedSQL(
                        withoutPrimaryKey: dropsMaskedIndexes && table.primaryKey.contains { masked.contains(SQLIdentifier.foldCase($0)) })
                }
            }
            schema.tables[position] = table
        }
        return schema
    }
}

extension TableSchema {
    /// The table's `CREATE TABLE` text written anew from its columns, keys and foreign keys, for a
    /// table whose original text names something left out. Defaults are written in parentheses:
    /// `PRAGMA table_xinfo` gives an expression default (`datetime('now')`) without them.
    ///
    /// - Parameter withoutPrimaryKey: leave the primary key out (its index would come back).
    func regeneratedSQL(withoutPrimaryKey: Bool = false) -> String {
        var table = self
        table.rowCount = nil
        for column in table.columns.indices {
            table.columns[column].defaultValue = table.columns[column].defaultValue.map { "(\($0))" }
            if withoutPrimaryKey { table.columns[column].primaryKeyPosition = nil }
        }
        return String(SchemaDescriber().ddl(for: table).dropLast())
    }
}
