/// Builds injection-free SQL for the structured `insert`, `update`, `delete` and `aggregate`
/// operations.
///
/// Every table and column name is checked against the schema and written in its declared
/// spelling, quoted; every value is a bound parameter. The statements built here still go through
/// the classifier and the policy like any other SQL.
///
/// ```swift
/// let builder = StructuredStatementBuilder(schema: schema)
/// let delete = try builder.delete(from: "Track", where: RowFilter(equalities: ["TrackId": 1]))
/// // DELETE FROM "Track" WHERE "TrackId" = ?   [1]
/// ```
public struct StructuredStatementBuilder: Sendable {
    /// The schema names are checked against (hidden tables already removed).
    public let schema: DatabaseSchema

    /// Creates a builder for a schema.
    public init(schema: DatabaseSchema) {
        self.schema = schema
    }

    /// One `INSERT` per row, grouped so rows with the same columns share one SQL text.
    ///
    /// A row with no column inserts `DEFAULT VALUES`.
    ///
    /// - Throws: ``SwiftDBAIError/unknownTable(_:available:)``,
    ///   ``SwiftDBAIError/unknownColumn(_:table:available:)``, or
    ///   ``SwiftDBAIError/invalidRequest(_:)`` for no rows, a view, or a generated column.
    public func insert(into tableName: String, rows: [[String: SQLValue]]) throws(SwiftDBAIError) -> [BoundStatement] {
        let table = try writableTable(tableName)
        guard !rows.isEmpty else {
            throw .invalidRequest("Give at least one row to insert.")
        }
        return try rows.map { (row) throws(SwiftDBAIError) -> BoundStatement in
            let assignments = try resolvedAssignments(row, in: table)
            let target = SQLIdentifier.quote(table.name)
            guard !assignments.isEmpty else {
                return BoundStatement(sql: "INSERT INTO \(target) DEFAULT VALUES")
            }
            let columns = assignments.map { SQLIdentifier.quote($0.column) }.joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: assignments.count).joined(separator: ", ")
            return BoundStatement(
                sql: "INSERT INTO \(target) (\(columns)) VALUES (\(placeholders))",
                arguments: .positional(assignments.map(\.value)))
        }
    }

    /// An `UPDATE` of the rows matching the filter.
    ///
    /// - Parameter allRows: must be true to update every row with an empty filter.
    /// - Throws: as ``insert(into:rows:)``, and ``SwiftDBAIError/rejected(_:)`` with
    ///   ``SQLRejection/Code/missingFilter`` for an empty filter without `allRows`.
    public func update(
        _ tableName: String, set values: [String: SQLValue], where filter: RowFilter, allRows: Bool = false
    ) throws(SwiftDBAIError) -> BoundStatement {
        let table = try writableTable(tableName)
        let assignments = try resolvedAssignments(values, in: table)
        guard !assignments.isEmpty else {
            throw .invalidRequest("Give at least one column to set.")
        }
        let setClause = assignments.map { "\(SQLIdentifier.quote($0.column)) = ?" }.joined(separator: ", ")
        let condition = try whereClause(filter, in: table, allRows: allRows, operation: .update)
        return BoundStatement(
            sql: "UPDATE \(SQLIdentifier.quote(table.name)) SET \(setClause)\(condition.sql)",
            arguments: .positional(assignments.map(\.value) + condition.arguments))
    }

    /// A `DELETE` of the rows matching the filter.
    ///
    /// - Parameter allRows: must be true to delete every row with an empty filter.
    /// - Throws: as ``update(_:set:where:allRows:)``.
    public func delete(from tableName: String, where filter: RowFilter, allRows: Bool = false) throws(SwiftDBAIError) -> BoundStatement {
        let table = try writableTable(tableName)
        let condition = try whereClause(filter, in: table, allRows: allRows, operation: .delete)
        return BoundStatement(
            sql: "DELETE FROM \(SQLIdentifier.quote(table.name))\(condition.sql)",
            arguments: .positional(condition.arguments))
    }

    /// A `SELECT` of group columns and one aggregate.
    ///
    /// - Throws: ``SwiftDBAIError/unknownTable(_:available:)``,
    ///   ``SwiftDBAIError/unknownColumn(_:table:available:)``, or
    ///   ``SwiftDBAIError/invalidRequest(_:)`` for a missing column or a limit below 1.
    public func aggregate(_ request: AggregateRequest) throws(SwiftDBAIError) -> BoundStatement {
        let table = try knownTable(request.table)
        let argument: String
        if let column = request.column {
            argument = SQLIdentifier.quote(try knownColumn(column, in: table).name)
        } else if request.function == .count {
            argument = "*"
        } else {
            throw .invalidRequest("\(request.function.rawValue) needs a column; only count works without one.")
        }
        let groups = try request.groupBy.map { (name) throws(SwiftDBAIError) -> String in
            SQLIdentifier.quote(try knownColumn(name, in: table).name)
        }
        let alias = SQLIdentifier.quote(request.resultColumnName)
        let selected = (groups + ["\(request.function.rawValue)(\(argument)) AS \(alias)"]).joined(separator: ", ")
        let condition = try whereClause(request.filter, in: table, allRows: true, operation: .select)
        var sql = "SELECT \(selected) FROM \(SQLIdentifier.quote(table.name))\(condition.sql)"
        var arguments = condition.arguments
        if !groups.isEmpty {
            sql += " GROUP BY " + groups.joined(separator: ", ")
        }
        if let order = request.order {
            sql += " ORDER BY \(alias) \(order == .ascending ? "ASC" : "DESC")"
        }
        if let limit = request.limit {
            guard limit >= 1 else { throw .invalidRequest("limit must be at least 1.") }
            sql += " LIMIT ?"
            arguments.append(.integer(Int64(limit)))
        }
        return BoundStatement(sql: sql, arguments: .positional(arguments))
    }

    // MARK: - Names

    private func knownTable(_ name: String) throws(SwiftDBAIError) -> TableSchema {
        guard let table = schema.table(named: name) else {
            throw .unknownTable(name, available: schema.tableNames)
        }
        return table
    }

    private func writableTable(_ name: String) throws(SwiftDBAIError) -> TableSchema {
        let table = try knownTable(name)
        guard table.kind != .view else {
            throw .invalidRequest("\(table.name) is a view; write to the table(s) it reads instead.")
        }
        return table
    }

    private func knownColumn(_ name: String, in table: TableSchema) throws(SwiftDBAIError) -> ColumnSchema {
        if let column = table.column(named: name) { return column }
        if SQLIdentifier.same(name, "rowid"), table.kind == .table, !table.isWithoutRowID {
            return ColumnSchema(name: "rowid", declaredType: "INTEGER")
        }
        throw .unknownColumn(name, table: table.name, available: table.columns.map(\.name))
    }

    /// Column → value pairs in the table's column order, names in their declared spelling.
    private func resolvedAssignments(
        _ values: [String: SQLValue], in table: TableSchema
    ) throws(SwiftDBAIError) -> [(column: String, value: SQLValue)] {
        var resolved: [(column: String, value: SQLValue, position: Int)] = []
        var seen: Set<String> = []
        for (name, value) in values {
            let column = try knownColumn(name, in: table)
            guard !column.isGenerated else {
                throw .invalidRequest("\(table.name).\(column.name) is a generated column; it cannot be written.")
            }
            guard seen.insert(SQLIdentifier.foldCase(column.name)).inserted else {
                throw .invalidRequest("The column \(column.name) is given twice.")
            }
            let position = table.columns.firstIndex { $0.name == column.name } ?? table.columns.count
            resolved.append((column.name, value, position))
        }
        return resolved.sorted { $0.position < $1.position }.map { ($0.column, $0.value) }
    }

    // MARK: - WHERE

    private func whereClause(
        _ filter: RowFilter, in table: TableSchema, allRows: Bool, operation: SQLOperation
    ) throws(SwiftDBAIError) -> (sql: String, arguments: [SQLValue]) {
        guard !filter.isEmpty else {
            if allRows || operation == .select { return ("", []) }
            throw .rejected(SQLRejection(
                .missingFilter,
                "\(operation.sqlKeyword) without a filter would change every row of \(table.name). Give a `where`, or pass all_rows: true to mean every row."))
        }
        var terms: [String] = []
        var arguments: [SQLValue] = []
        for condition in filter.conditions {
            let column = SQLIdentifier.quote(try knownColumn(condition.column, in: table).name)
            switch condition.predicate {
            case .equals(.null), .isNull(true):
                terms.append("\(column) IS NULL")
            case .notEquals(.null), .isNull(false):
                terms.append("\(column) IS NOT NULL")
            case .equals(let value): terms.append("\(column) = ?"); arguments.append(value)
            case .notEquals(let value): terms.append("\(column) != ?"); arguments.append(value)
            case .lessThan(let value): terms.append("\(column) < ?"); arguments.append(value)
            case .lessThanOrEqual(let value): terms.append("\(column) <= ?"); arguments.append(value)
            case .greaterThan(let value): terms.append("\(column) > ?"); arguments.append(value)
            case .greaterThanOrEqual(let value): terms.append("\(column) >= ?"); arguments.append(value)
            case .like(let value): terms.append("\(column) LIKE ?"); arguments.append(value)
            case .notLike(let value): terms.append("\(column) NOT LIKE ?"); arguments.append(value)
            case .between(let low, let high):
                terms.append("\(column) BETWEEN ? AND ?")
                arguments += [low, high]
            case .isIn(let values), .isNotIn(let values):
                guard !values.isEmpty else {
                    throw .invalidRequest("The list for \(condition.column) is empty; give at least one value.")
                }
                let negation = if case .isNotIn = condition.predicate { " NOT" } else { "" }
                let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
                terms.append("\(column)\(negation) IN (\(placeholders))")
                arguments += values
            }
        }
        return (" WHERE " + terms.joined(separator: " AND "), arguments)
    }
}
