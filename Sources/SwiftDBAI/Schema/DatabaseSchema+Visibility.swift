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
                var regenerated = table
                regenerated.rowCount = nil
                table.sql = String(SchemaDescriber().ddl(for: regenerated).dropLast())
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
            let keys = table.foreignKeys.filter { key in
                !key.columns.contains { hidden.contains(SQLIdentifier.foldCase($0)) }
                    && !key.referencedColumns.contains { protection.isHidden(key.referencedTable, $0) }
            }
            var rewrites = !hidden.isEmpty || keys.count != table.foreignKeys.count
            if forNames, let masked = protection.masked[SQLIdentifier.foldCase(table.name)] {
                // Written anew too: a UNIQUE constraint of the original text would make its index.
                rewrites = true
                table.indexes.removeAll { index in
                    index.terms.contains { $0.isExpression } || index.columns.contains { masked.contains(SQLIdentifier.foldCase($0)) }
                }
            }
            if rewrites {
                table.columns.removeAll { hidden.contains(SQLIdentifier.foldCase($0.name)) }
                table.indexes.removeAll { index in
                    index.terms.contains { $0.isExpression } || index.columns.contains { hidden.contains(SQLIdentifier.foldCase($0)) }
                }
                table.foreignKeys = keys
                if table.kind == .table {
                    var regenerated = table
                    regenerated.rowCount = nil
                    regenerated.description = nil
                    let masked = protection.masked[SQLIdentifier.foldCase(table.name)] ?? []
                    // A key over a masked column would make its index again in the names copy.
                    let keyed = forNames && table.primaryKey.contains { masked.contains(SQLIdentifier.foldCase($0)) }
                    for column in regenerated.columns.indices {
                        regenerated.columns[column].description = nil
                        // table_xinfo gives an expression default without its parentheses.
                        regenerated.columns[column].defaultValue = regenerated.columns[column].defaultValue.map { "(\($0))" }
                        if keyed { regenerated.columns[column].primaryKeyPosition = nil }
                    }
                    table.sql = String(SchemaDescriber().ddl(for: regenerated).dropLast())
                }
            }
            schema.tables[position] = table
        }
        return schema
    }
}
