import GRDB

extension SQLExecutor {
    /// Runs one read-only statement and returns its rows, at most the row cap.
    ///
    /// The statement must compile to a read that returns columns (`SELECT`, `WITH … SELECT`,
    /// `VALUES`, read-only `PRAGMA` functions, `EXPLAIN`). Rows are fetched one by one and fetching
    /// stops at the row cap or at ``ExecutionLimits/maxResultBytes``, and long values are clipped,
    /// so a huge result costs bounded memory; the result then reports ``QueryResult/truncated``
    /// and ``QueryResult/truncationReason``.
    ///
    /// - Parameters:
    ///   - sql: exactly one statement.
    ///   - arguments: values for its `?` or `:name` parameters.
    ///   - maxRows: a smaller cap for this call; never raises ``ExecutionLimits/maxRows`` or a
    ///     ``MaxRowLimitValidator``.
    /// - Throws: ``SwiftDBAIError/rejected(_:)`` when the statement is not an allowed read,
    ///   ``SwiftDBAIError/timeout(milliseconds:)``, ``SwiftDBAIError/cancelled``,
    ///   ``SwiftDBAIError/sqlite(code:message:)``.
    ///   - position: the ``QueryResult/next`` of the previous page, for the next page: the
    ///     statement runs again and the rows before the page are stepped past (no transaction is
    ///     held between pages). The page says when those rows are not the ones the earlier pages
    ///     returned (``QueryResult/earlierRowsChanged``).
    /// - Throws: also ``SwiftDBAIError/invalidRequest(_:)`` for a `position` made under another
    ///   schema version.
    public func query(
        _ sql: String, arguments: SQLArguments = .none, maxRows: Int? = nil, after position: ResultPosition? = nil
    ) async throws(SwiftDBAIError) -> QueryResult {
        let cap = [maxRows, limits.maxRows, policy.maximumRowCount].compactMap { $0 }.min().map { max(1, $0) } ?? limits.maxRows
        let reader = ResultReader(limits: limits, maxRows: cap)
        guard let delegate else {
            // No hook to call between the checks and the fetch: one database access for both.
            return try await checkedRead(sql, arguments: arguments, reader: reader, after: position)
        }
        let statement = try await check(sql)
        try Self.requireRead(statement, arguments: arguments)
        await delegate.willExecuteSQL(statement)
        let result: Result<QueryResult, SwiftDBAIError>
        do {
            // Authorized again in the access that runs it: the schema may have changed meanwhile.
            result = .success(try await checkedRead(sql, arguments: arguments, reader: reader, after: position))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let rows):
            await delegate.didExecuteSQL(statement, outcome: .rows(count: rows.rowCount, truncated: rows.truncated))
        case .failure(let error):
            await delegate.didExecuteSQL(statement, outcome: .failed(error))
        }
        return try result.get()
    }

    /// Classifies, authorizes and runs a read in one database access.
    private func checkedRead(
        _ sql: String, arguments: SQLArguments, reader: ResultReader, after position: ResultPosition? = nil
    ) async throws(SwiftDBAIError) -> QueryResult {
        let deadline = StatementDeadline(timeout: limits.timeout)
        let span = StatementSpan.start(
            [BoundStatement(sql: sql, arguments: arguments)], operation: .select, table: nil, database: databaseName)
        do {
            let result = try await reading { db in
                try deadline.armed(on: db.sqliteConnection) {
                    let statement = try self.authorized(sql, in: db)
                    span?.name(after: statement)
                    try Self.requireRead(statement, arguments: arguments)
                    var reader = reader
                    reader.omittedColumns = statement.hiddenResultColumns
                    var result = try self.fetch(sql, arguments: arguments, reader: reader, db: db, after: position)
                    if result.next != nil || position != nil {
                        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
                        if let position, position.schemaVersion != version {
                            throw SwiftDBAIError.invalidRequest(
                                "The schema changed since the previous page was read: run the statement again from its first page.")
                        }
                        result.next?.schemaVersion = version
                    }
                    return result
                }
            }
            span?.end(returnedRows: result.rowCount)
            return result
        } catch {
            let failure = mapped(error, deadline: deadline)
            span?.end(failure)
            throw failure
        }
    }

    /// Refuses a statement that is not a read, or whose parameters do not match the values.
    static func requireRead(_ statement: ClassifiedStatement, arguments: SQLArguments) throws(SwiftDBAIError) {
        guard statement.operation == .select, statement.writeOperations.isEmpty else {
            throw .rejected(SQLRejection(
                .unexpectedOperation,
                "A query must be a read; this statement is \(statement.operation.sqlKeyword). Use the \(statement.operation.rawValue) operation instead."))
        }
        try ArgumentsCheck.validate(arguments, for: statement)
    }

    /// Steps the statement on the real connection, within the reader's row cap and byte budget.
    private func fetch(
        _ sql: String, arguments: SQLArguments, reader: ResultReader, db: Database, after position: ResultPosition? = nil
    ) throws -> QueryResult {
        let start = ContinuousClock.now
        let statement = try Self.preparedRead(sql, arguments: arguments, db: db)
        return try reader.read(statement, sql: sql, start: start, after: position)
    }

    /// The statement compiled on the real connection, its values bound, once it is known to be
    /// a read that returns rows (belt and braces: the connection must agree with the classifier).
    static func preparedRead(_ sql: String, arguments: SQLArguments, db: Database) throws -> Statement {
        let statement = try db.makeStatement(sql: sql)
        guard statement.isReadonly, statement.columnCount > 0 else {
            throw SQLRejection(.unexpectedOperation, "A query must be a read that returns rows.")
        }
        try statement.setArguments(arguments.statementArguments)
        return statement
    }
}
