import GRDBSQLite

extension SQLStatementClassifier {
    /// The canonical names of the tables and views that `isVisible` accepts, without the tables
    /// `protection` hides and the views that read a table it refuses or a hidden column (directly
    /// or through other views): such a view could never be read, and its definition would name
    /// what is hidden.
    func visibleTables(_ isVisible: (String) -> Bool, protection: ProtectedColumns = .none) -> Set<String> {
        let named = Set(schema.tables.filter { isVisible($0.name) && !protection.hiddenTables.contains($0.name) }.map(\.name))
        var visible = named
        for view in schema.tables where view.kind == .view && named.contains(view.name) {
            let reads = try? classifyWithoutLock("SELECT * FROM main.\(SQLIdentifier.quote(view.name))")
            let readsHidden = reads.map { statement in
                statement.columnsRead.contains { table, columns in columns.contains { protection.isHidden(table, $0) } }
            } ?? true
            if reads.map({ !$0.tablesRead.isSubset(of: named) }) ?? true || readsHidden {
                visible.remove(view.name)
            }
        }
        return visible
    }

    /// Compiles the first statement of `sql` on the copy of the visible schema, so that a name
    /// that is hidden fails with SQLite's own message for a name that does not exist.
    ///
    /// - Throws: ``SQLRejection`` with code ``SQLRejection/Code/invalidSQL``.
    func resolveNames(_ sql: String, on visibleReplica: SchemaReplica) throws(SQLRejection) {
        let connection = visibleReplica.connection
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, 0, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(connection))
            throw SQLRejection(.invalidSQL, "SQLite cannot compile the statement: \(message).")
        }
    }

    /// Refuses maintenance statements by name before any other check: ANALYZE writes statistics
    /// tables (SQLite reports it as a schema change), REINDEX rebuilds indexes.
    static func refuseMaintenance(_ actions: [AuthorizerAction]) throws(SQLRejection) {
        if actions.contains(where: { $0.code == SQLITE_ANALYZE }) {
            throw SQLRejection(
                .unsupportedStatement,
                "ANALYZE is not allowed: it writes SQLite's statistics tables. Only SELECT, INSERT, UPDATE and DELETE statements run here.")
        }
        if actions.contains(where: { $0.code == SQLITE_REINDEX }) {
            throw SQLRejection(
                .unsupportedStatement,
                "REINDEX is not allowed: it rebuilds indexes. Only SELECT, INSERT, UPDATE and DELETE statements run here.")
        }
    }
}
