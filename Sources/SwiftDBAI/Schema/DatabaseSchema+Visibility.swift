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
