import GRDB

extension SQLExecutor {
    /// Runs one write statement (`INSERT`, `UPDATE`, `DELETE`, upserts) in its own transaction.
    ///
    /// - Parameters:
    ///   - sql: exactly one statement.
    ///   - arguments: values for its parameters.
    ///   - operation: when given, the statement must compile to exactly this operation
    ///     (an `INSERT` sent as an update is refused).
    ///   - confirmed: true when the caller already obtained the user's confirmation for a
    ///     destructive statement (for example through a confirmation token).
    /// - Throws: ``SwiftDBAIError/rejected(_:)``, ``SwiftDBAIError/confirmationRequired(_:tables:)``,
    ///   ``SwiftDBAIError/confirmationDeclined(_:tables:)``, ``SwiftDBAIError/timeout(milliseconds:)``,
    ///   ``SwiftDBAIError/cancelled``, ``SwiftDBAIError/sqlite(code:message:)``. Whatever the error,
    ///   the database is left exactly as it was.
    public func execute(
        _ sql: String, arguments: SQLArguments = .none, expecting operation: SQLOperation? = nil,
        confirmed: Bool = false
    ) async throws(SwiftDBAIError) -> MutationResult {
        try await execute([BoundStatement(sql: sql, arguments: arguments)], expecting: operation, confirmed: confirmed)
    }

    /// Runs several write statements in one transaction: all of them are committed, or none.
    ///
    /// - Throws: as ``execute(_:arguments:expecting:confirmed:)``.
    public func execute(
        _ statements: [BoundStatement], expecting operation: SQLOperation? = nil, confirmed: Bool = false
    ) async throws(SwiftDBAIError) -> MutationResult {
        let classified = try await classifyWrites(statements, expecting: operation)
        if !confirmed {
            try await confirmDestructive(statements, classified: classified)
        }
        for statement in classified {
            await delegate?.willExecuteSQL(statement)
        }
        let mainOperation = classified[0].operation
        let deadline = StatementDeadline(timeout: limits.timeout)
        let result: Result<MutationResult, SwiftDBAIError>
        do {
            result = .success(try await database.writeWithoutTransaction { db in
                try deadline.armed(on: db.sqliteConnection) {
                    try self.runGuarded(statements, operation: mainOperation, db: db, commit: true).result
                }
            })
        } catch {
            result = .failure(mapped(error, deadline: deadline))
        }
        for statement in classified {
            switch result {
            case .success(let mutation):
                await delegate?.didExecuteSQL(statement, outcome: .changes(rowsAffected: mutation.rowsAffected))
            case .failure(let error):
                await delegate?.didExecuteSQL(statement, outcome: .failed(error))
            }
        }
        return try result.get()
    }

    /// Runs the statements in a transaction that is always rolled back, and reports what they
    /// would change: the number of rows, and the current content of the rows they would update
    /// or delete in the table they target (rowid tables only).
    ///
    /// Used to show a user what a destructive statement would do before confirming it.
    ///
    /// - Throws: as ``execute(_:arguments:expecting:confirmed:)``, without confirmation errors.
    public func preview(
        _ statements: [BoundStatement], expecting operation: SQLOperation? = nil, maxRows: Int? = nil
    ) async throws(SwiftDBAIError) -> WritePreview {
        let classified = try await classifyWrites(statements, expecting: operation)
        let cap = min(maxRows ?? limits.maxRows, limits.maxRows)
        let target = classified[0].tablesWritten.first { $0.value.contains(classified[0].operation) }?.key
        let deadline = StatementDeadline(timeout: limits.timeout)
        do {
            return try await database.writeWithoutTransaction { db in
                try deadline.armed(on: db.sqliteConnection) {
                    let run = try self.runGuarded(statements, operation: classified[0].operation, db: db, commit: false)
                    var preview = WritePreview(rowsAffected: run.result.rowsAffected, affectedRows: nil)
                    if let target, classified[0].operation != .insert {
                        preview.affectedRows = try self.rows(of: target, rowIDs: run.changedRowIDs[target] ?? [], cap: cap, db: db)
                    }
                    return preview
                }
            }
        } catch {
            throw mapped(error, deadline: deadline)
        }
    }

    // MARK: - Steps

    private func classifyWrites(
        _ statements: [BoundStatement], expecting operation: SQLOperation?
    ) async throws(SwiftDBAIError) -> [ClassifiedStatement] {
        guard !statements.isEmpty else {
            throw .invalidRequest("No statement to run.")
        }
        let texts = statements.map(\.sql)
        let classified = try await access { db in
            var bySQL: [String: ClassifiedStatement] = [:]
            return try texts.map { sql in
                if let known = bySQL[sql] { return known }
                let statement = try self.authorized(sql, in: db)
                bySQL[sql] = statement
                return statement
            }
        }
        for (statement, bound) in zip(classified, statements) {
            guard statement.operation.isWrite else {
                throw .rejected(SQLRejection(
                    .unexpectedOperation,
                    "This statement only reads; send it as a query."))
            }
            if let operation, statement.operation != operation {
                throw .rejected(SQLRejection(
                    .unexpectedOperation,
                    "Expected one \(operation.sqlKeyword) statement, but this one is \(statement.operation.sqlKeyword). Use the \(statement.operation.rawValue) operation for it."))
            }
            try ArgumentsCheck.validate(bound.arguments, for: statement)
        }
        return classified
    }

    private func confirmDestructive(
        _ statements: [BoundStatement], classified: [ClassifiedStatement]
    ) async throws(SwiftDBAIError) {
        for (statement, bound) in zip(classified, statements) where policy.requiresConfirmation(statement) {
            let request = DestructiveOperationRequest(statement: statement, arguments: bound.arguments)
            guard let delegate else {
                throw .confirmationRequired(statement.operation, tables: request.tablesAffected)
            }
            guard await delegate.confirmDestructiveOperation(request) else {
                throw .confirmationDeclined(statement.operation, tables: request.tablesAffected)
            }
        }
    }

    /// What a guarded run did.
    private struct GuardedRun {
        var result: MutationResult
        /// Rowids changed per table (canonical names), for previews.
        var changedRowIDs: [String: [Int64]]
    }

    /// Runs the statements in one transaction watched by a ``MutationGuard``; commits or rolls back.
    private func runGuarded(
        _ statements: [BoundStatement], operation: SQLOperation, db: Database, commit: Bool
    ) throws -> GuardedRun {
        let start = ContinuousClock.now
        let entry = try schemaCache.current(db)
        // The schema may have changed since classification: authorize again against what runs.
        for sql in Set(statements.map(\.sql)) {
            _ = try authorized(sql, in: db)
        }
        let mutationGuard = MutationGuard(policy: policy, schema: entry.schema)
        db.add(transactionObserver: mutationGuard, extent: .observerLifetime)
        defer { db.remove(transactionObserver: mutationGuard) }

        var rowsAffected = 0
        var lastInsertRowID: Int64?
        var prepared: [String: Statement] = [:]
        try db.inTransaction(.immediate) {
            for bound in statements {
                let statement = try prepared[bound.sql] ?? db.makeStatement(sql: bound.sql)
                prepared[bound.sql] = statement
                let rowIDBefore = db.lastInsertedRowID
                try statement.execute(arguments: bound.arguments.statementArguments)
                rowsAffected += db.changesCount
                // WITHOUT ROWID tables and virtual tables leave the connection's last rowid as it was.
                if operation == .insert, db.lastInsertedRowID != rowIDBefore {
                    lastInsertRowID = db.lastInsertedRowID
                }
            }
            if commit { return .commit }
            return .rollback
        }
        // A rolled-back run never reaches the guard's commit check: report a violation here.
        if let violation = mutationGuard.violation { throw violation }
        return GuardedRun(
            result: MutationResult(
                operation: operation, rowsAffected: rowsAffected, lastInsertRowID: lastInsertRowID,
                elapsed: ContinuousClock.now - start),
            changedRowIDs: mutationGuard.changedRowIDs)
    }

    /// The rows of a rowid table with the given rowids, at most `cap`.
    private func rows(of table: String, rowIDs: [Int64], cap: Int, db: Database) throws -> QueryResult? {
        guard let schema = try schemaCache.current(db).schema.table(named: table),
              schema.kind == .table, !schema.isWithoutRowID else { return nil }
        let ids = Array(rowIDs.prefix(cap))
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let sql = "SELECT * FROM \(SQLIdentifier.quote(schema.name)) WHERE rowid IN (\(placeholders))"
        guard !ids.isEmpty else {
            return QueryResult(columns: schema.columns.map { QueryColumn(name: $0.name, declaredType: $0.declaredType) }, rows: [], sql: sql)
        }
        let statement = try db.makeStatement(sql: sql)
        let fetched = try Row.fetchAll(statement, arguments: StatementArguments(ids))
        let columns = statement.columnNames.map { name in
            QueryColumn(name: name, declaredType: schema.column(named: name)?.declaredType)
        }
        return QueryResult(
            columns: columns,
            rows: fetched.map { row in (0..<row.count).map { SQLValue(row[$0] as DatabaseValue) } },
            truncated: rowIDs.count > cap, sql: sql)
    }
}

/// What a write would change, computed by running it in a transaction that is rolled back.
public struct WritePreview: Sendable, Hashable {
    /// Rows the statements would insert, update or delete themselves.
    public var rowsAffected: Int
    /// The current content of the rows an update or delete would change in its target table
    /// (at most the row cap); nil for inserts and tables without rowid.
    public var affectedRows: QueryResult?
}
