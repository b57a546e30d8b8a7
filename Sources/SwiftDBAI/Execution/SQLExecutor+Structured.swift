extension SQLExecutor {
    /// A builder over the schema callers may see (hidden tables removed).
    ///
    /// - Throws: ``SwiftDBAIError`` when the schema cannot be read.
    public func statementBuilder() async throws(SwiftDBAIError) -> StructuredStatementBuilder {
        StructuredStatementBuilder(schema: try await schema())
    }

    /// Inserts rows (column → value) into a table, all in one transaction.
    ///
    /// - Throws: as ``StructuredStatementBuilder/insert(into:rows:)`` and
    ///   ``execute(_:expecting:confirmed:matching:)``.
    public func insert(into table: String, rows: [[String: SQLValue]]) async throws(SwiftDBAIError) -> MutationResult {
        let statements = try await statementBuilder().insert(into: table, rows: rows)
        return try await execute(statements, expecting: .insert)
    }

    /// Updates the rows matching a filter. An empty filter needs `allRows: true`.
    ///
    /// - Throws: as ``StructuredStatementBuilder/update(_:set:where:allRows:)`` and
    ///   ``execute(_:expecting:confirmed:matching:)``.
    public func update(
        _ table: String, set values: [String: SQLValue], where filter: RowFilter, allRows: Bool = false,
        confirmed: Bool = false
    ) async throws(SwiftDBAIError) -> MutationResult {
        let statement = try await statementBuilder().update(table, set: values, where: filter, allRows: allRows)
        return try await execute([statement], expecting: .update, confirmed: confirmed)
    }

    /// Deletes the rows matching a filter. An empty filter needs `allRows: true`; the delete
    /// needs confirmation unless the ``MutationPolicy`` says otherwise.
    ///
    /// - Throws: as ``StructuredStatementBuilder/delete(from:where:allRows:)`` and
    ///   ``execute(_:expecting:confirmed:matching:)``.
    public func delete(
        from table: String, where filter: RowFilter, allRows: Bool = false, confirmed: Bool = false
    ) async throws(SwiftDBAIError) -> MutationResult {
        let statement = try await statementBuilder().delete(from: table, where: filter, allRows: allRows)
        return try await execute([statement], expecting: .delete, confirmed: confirmed)
    }

    /// Runs an aggregate query.
    ///
    /// - Throws: as ``StructuredStatementBuilder/aggregate(_:)`` and
    ///   ``query(_:arguments:maxRows:)``.
    public func aggregate(_ request: AggregateRequest, after position: ResultPosition? = nil) async throws(SwiftDBAIError) -> QueryResult {
        let statement = try await aggregateStatement(request)
        return try await query(statement.sql, arguments: statement.arguments, after: position)
    }

    /// The statement ``aggregate(_:after:)`` runs for `request`, with its values.
    ///
    /// - Throws: ``SwiftDBAIError`` as ``aggregate(_:after:)``, before anything runs.
    package func aggregateStatement(_ request: AggregateRequest) async throws(SwiftDBAIError) -> BoundStatement {
        try await statementBuilder().aggregate(request)
    }
}
