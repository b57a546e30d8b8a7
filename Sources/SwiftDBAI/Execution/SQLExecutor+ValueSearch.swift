import GRDB

extension SQLExecutor {
    /// Finds which text columns of which tables store each phrase (compared without regard to
    /// case), for linking a question to the schema. Only ordinary tables of `schema` are
    /// searched, only columns whose declared type has text affinity or none, one row per place.
    ///
    /// The search stops at `budget` (and never runs past the executor's statement timeout): the
    /// places found until then are returned. It reads through the executor's read-only
    /// connection and does not go through the ``SQLExecutionDelegate``, like sample rows for a
    /// prompt.
    ///
    /// - Throws: ``SwiftDBAIError`` when the database cannot be read at all.
    package func findValues(
        _ phrases: [String], in schema: DatabaseSchema, budget: Duration = .seconds(2)
    ) async throws(SwiftDBAIError) -> [ValueMatch] {
        guard !phrases.isEmpty else { return [] }
        let places = schema.tables.filter { $0.kind == .table }.flatMap { table in
            table.columns.filter { $0.visibility != .hidden && !$0.isMasked && Self.mayHoldText($0.declaredType) }.map { (table.name, $0.name) }
        }
        let deadline = StatementDeadline(timeout: min(budget, limits.timeout))
        return try await access { db in
            var matches: [ValueMatch] = []
            deadline.armed(on: db.sqliteConnection) {
                for (table, column) in places {
                    let sql = "SELECT \(SQLIdentifier.quote(column)) FROM main.\(SQLIdentifier.quote(table)) "
                        + "WHERE \(SQLIdentifier.quote(column)) = ? COLLATE NOCASE LIMIT 1"
                    for phrase in phrases {
                        do {
                            guard let value = try String.fetchOne(db, sql: sql, arguments: [phrase]) else { continue }
                            matches.append(ValueMatch(phrase: phrase, table: table, column: column, value: value))
                        } catch {
                            if deadline.didExpire { return }
                        }
                    }
                }
            }
            return matches
        }
    }

    /// True for declared types with TEXT affinity or none (SQLite's affinity rules, section 3.1).
    static func mayHoldText(_ declaredType: String) -> Bool {
        let type = declaredType.uppercased()
        if type.contains("INT") { return false }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return true }
        return type.isEmpty || type.contains("BLOB")
    }
}
