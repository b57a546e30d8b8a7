import GRDB

extension SQLExecutor {
    /// Profiles the visible columns of the ordinary tables of `schema`: NULL counts (one scan per
    /// table), whether values are ISO dates (the first non-NULL value), and the distinct values of
    /// text columns that have few (a status, a category) and do not hold dates.
    ///
    /// The work stops at `budget` (and never runs past the executor's statement timeout): the
    /// profiles made until then are returned, so a very large database gets fewer of them, never a
    /// long wait. It reads through the executor's read-only connection and does not go through the
    /// ``SQLExecutionDelegate``, like sample rows for a prompt.
    ///
    /// - Throws: ``SwiftDBAIError`` when the database cannot be read at all.
    package func columnProfiles(in schema: DatabaseSchema, budget: Duration = .seconds(1)) async throws(SwiftDBAIError) -> [ColumnProfile] {
        let tables = schema.tables.filter { $0.kind == .table }.map { table in
            (name: table.name, columns: table.columns.filter { $0.visibility != .hidden && !$0.isMasked })
        }.filter { !$0.columns.isEmpty }
        guard !tables.isEmpty else { return [] }
        let deadline = StatementDeadline(timeout: min(budget, limits.timeout))
        return try await access { db in
            var profiles: [ColumnProfile] = []
            deadline.armed(on: db.sqliteConnection) {
                for table in tables {
                    do {
                        profiles += try Self.profiles(of: table.name, columns: table.columns, in: db)
                    } catch {
                        if deadline.didExpire { return }
                    }
                }
            }
            return profiles
        }
    }

    private static func profiles(of table: String, columns: [ColumnSchema], in db: Database) throws -> [ColumnProfile] {
        let source = "main." + SQLIdentifier.quote(table)
        let counts = columns.map { "COUNT(\(SQLIdentifier.quote($0.name)))" }.joined(separator: ", ")
        guard let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), \(counts) FROM \(source)") else { return [] }
        let rowCount: Int = row[0]
        return try columns.enumerated().map { index, column in
            let name = SQLIdentifier.quote(column.name)
            let nonNull: Int = row[index + 1]
            let first = try DatabaseValue.fetchOne(db, sql: "SELECT \(name) FROM \(source) WHERE \(name) IS NOT NULL LIMIT 1")
            let firstText = first.flatMap { String.fromDatabaseValue($0) }
            let holdsISODates = firstText.map(ColumnProfile.looksLikeISODate) ?? false
            var categories: [String]?
            if mayHoldText(column.declaredType), column.primaryKeyPosition == nil, nonNull > 0, !holdsISODates {
                let values = try DatabaseValue.fetchAll(
                    db, sql: "SELECT DISTINCT \(name) FROM \(source) WHERE \(name) IS NOT NULL LIMIT \(ColumnProfile.maxCategories + 1)")
                let texts = values.compactMap { String.fromDatabaseValue($0) }
                if values.count <= ColumnProfile.maxCategories, texts.count == values.count,
                   texts.allSatisfy({ $0.count <= ColumnProfile.maxCategoryLength }) {
                    categories = texts
                }
            }
            return ColumnProfile(
                table: table, column: column.name, rowCount: rowCount, nullCount: rowCount - nonNull,
                holdsISODates: holdsISODates,
                categories: categories,
                holdsTimes: firstText.map(ColumnProfile.looksLikeISODateTime) ?? false)
        }
    }
}
