import GRDB
import GRDBSQLite
import SwiftDBAIPrimitives

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
    ///   - signature: the ``WritePreview/signature`` of the preview the user confirmed: the write
    ///     then runs only if it still changes exactly those rows, as they were.
    /// - Throws: ``SwiftDBAIError/rejected(_:)``, ``SwiftDBAIError/confirmationRequired(_:tables:)``,
    ///   ``SwiftDBAIError/confirmationDeclined(_:tables:)``, ``SwiftDBAIError/changedSincePreview(previewedRows:rowsNow:)``,
    ///   ``SwiftDBAIError/timeout(milliseconds:)``, ``SwiftDBAIError/cancelled``,
    ///   ``SwiftDBAIError/sqlite(code:message:)``. Whatever the error, the database is left
    ///   exactly as it was.
    public func execute(
        _ sql: String, arguments: SQLArguments = .none, expecting operation: SQLOperation? = nil,
        confirmed: Bool = false, matching signature: ChangeSignature? = nil
    ) async throws(SwiftDBAIError) -> MutationResult {
        try await execute(
            [BoundStatement(sql: sql, arguments: arguments)], expecting: operation, confirmed: confirmed, matching: signature)
    }

    /// Runs several write statements in one transaction: all of them are committed, or none.
    ///
    /// A destructive batch that is not `confirmed` is previewed and shown to the
    /// ``SQLExecutionDelegate``; once it confirms, the batch runs only if it still changes the
    /// rows of that preview (asked again, at most three times, when they changed meanwhile).
    ///
    /// - Throws: as ``execute(_:arguments:expecting:confirmed:matching:)``.
    public func execute(
        _ statements: [BoundStatement], expecting operation: SQLOperation? = nil, confirmed: Bool = false,
        matching signature: ChangeSignature? = nil
    ) async throws(SwiftDBAIError) -> MutationResult {
        let classified = try await classifyWrites(statements, expecting: operation)
        let needsConfirmation = classified.contains(where: policy.requiresConfirmation)
        guard !confirmed, let destructive = zip(classified, statements).first(where: { policy.requiresConfirmation($0.0) }) else {
            return try await run(
                statements, classified: classified, matching: signature,
                journaling: journal.map { Journaling(journal: $0, needsConfirmation: needsConfirmation, confirmedByDelegate: false) })
        }
        let tables = DestructiveOperationRequest(statement: destructive.0, arguments: destructive.1.arguments).tablesAffected
        guard let delegate, delegate.canConfirm else {
            throw .confirmationRequired(destructive.0.operation, tables: tables)
        }
        var lastChange: SwiftDBAIError?
        for _ in 1...Self.confirmationAttempts {
            let preview = try await self.preview(statements, expecting: operation, maxRows: Self.previewRowCount)
            var request = DestructiveOperationRequest(statement: destructive.0, arguments: destructive.1.arguments)
            request.statements = statements
            request.preview = preview
            request.changeSincePreviousConfirmation = lastChange
            guard await delegate.confirmDestructiveOperation(request) else {
                throw .confirmationDeclined(destructive.0.operation, tables: tables)
            }
            do {
                return try await run(
                    statements, classified: classified, matching: preview.signature,
                    journaling: journal.map { Journaling(journal: $0, needsConfirmation: true, confirmedByDelegate: true) })
            } catch .changedSincePreview(let previewed, let now) {
                lastChange = .changedSincePreview(previewedRows: previewed, rowsNow: now)
            }
        }
        throw lastChange ?? .cancelled
    }

    /// How many times a delegate is asked when the rows keep changing between preview and write.
    static let confirmationAttempts = 3
    /// Rows of a preview shown to a delegate.
    static let previewRowCount = 20

    /// Runs the statements in a transaction that is always rolled back, and reports what they
    /// would change: the number of rows, the current content of the rows they would update,
    /// delete or overwrite (`REPLACE`) in the table they target (rowid tables only, at most
    /// `maxRows`, long values clipped), and the ``ChangeSignature`` a confirmation of this
    /// preview is bound to.
    ///
    /// Used to show a user what a destructive statement would do before confirming it.
    ///
    /// - Throws: as ``execute(_:arguments:expecting:confirmed:matching:)``, without confirmation errors.
    public func preview(
        _ statements: [BoundStatement], expecting operation: SQLOperation? = nil, maxRows: Int? = nil
    ) async throws(SwiftDBAIError) -> WritePreview {
        let classified = try await classifyWrites(statements, expecting: operation)
        let cap = min(maxRows ?? limits.maxRows, limits.maxRows)
        let target = classified[0].tablesWritten.first { $0.value.contains(classified[0].operation) }?.key
        let deadline = StatementDeadline(timeout: limits.timeout)
        let span = StatementSpan.start(statements, operation: classified[0].operation, table: target, database: databaseName)
        span?.span.attributes["dbai.preview"] = true
        do {
            let preview = try await writing { db in
                try deadline.armed(on: db.sqliteConnection) {
                    let run = try self.runGuarded(statements, operation: classified[0].operation, db: db, commit: false)
                    // One snapshot for the rows shown and the digest the confirmation is bound to.
                    var preview: WritePreview?
                    try db.inTransaction(.deferred) {
                        let entry = try self.schemaCache.current(db)
                        let schema = entry.schema
                        var made = WritePreview(
                            rowsAffected: run.result.rowsAffected, affectedRows: nil,
                            signature: ChangeSignature(
                                rowsAffected: run.result.rowsAffected, changedRowIDs: run.touchedRowIDs,
                                contentDigest: try ChangeSignature.digest(of: run.touchedRowIDs, schema: schema, db: db)))
                        if let target {
                            // An insert shows the rows it would overwrite (REPLACE on the rowid).
                            let rowIDs = classified[0].operation == .insert ? run.insertedRowIDs[target] : run.changedRowIDs[target]
                            made.affectedRows = try self.rows(
                                of: target, rowIDs: rowIDs ?? [], cap: cap, schema: schema, protection: entry.protection, db: db)
                        }
                        preview = made
                        return .commit
                    }
                    guard let preview else { throw SwiftDBAIError.cancelled }
                    return preview
                }
            }
            span?.end(affectedRows: preview.rowsAffected)
            return preview
        } catch {
            let failure = mapped(error, deadline: deadline)
            span?.end(failure)
            throw failure
        }
    }

    // MARK: - Steps

    func classifyWrites(
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

    /// How a run tells its ``WriteJournal`` about the write.
    struct Journaling: Sendable {
        let journal: any WriteJournal
        /// The policy requires a confirmation for one of the statements.
        let needsConfirmation: Bool
        /// The delegate confirmed the write.
        let confirmedByDelegate: Bool
    }

    /// Runs the statements for real (committed), with the delegate's hooks around them; the
    /// journal, when there is one, records the write before it commits and hears how it ended.
    ///
    /// With `restoring`, the statements put back the rows of a recorded write: its checks run
    /// around them, and triggers are off while they run (``RowRestoration``).
    func run(
        _ statements: [BoundStatement], classified: [ClassifiedStatement], matching signature: ChangeSignature?,
        journaling: Journaling? = nil, restoring: RowRestoration? = nil
    ) async throws(SwiftDBAIError) -> MutationResult {
        for statement in classified {
            await delegate?.willExecuteSQL(statement)
        }
        let mainOperation = classified[0].operation
        let deadline = StatementDeadline(timeout: limits.timeout)
        let span = StatementSpan.start(
            statements, operation: mainOperation, table: Self.onlyTable(classified), database: databaseName)
        let prepared = Mutex<JournaledWrite?>(nil)
        let result: Result<MutationResult, SwiftDBAIError>
        do {
            result = .success(try await writing { db in
                try deadline.armed(on: db.sqliteConnection) {
                    let run = try self.runGuarded(
                        statements, operation: mainOperation, db: db, commit: true, matching: signature,
                        recordsRows: journaling != nil, restoring: restoring
                    ) { run, schema in
                        guard let journaling else { return }
                        let write = try Self.journaledWrite(statements, run: run, journaling: journaling, schema: schema, db: db)
                        do {
                            try journaling.journal.writeWillCommit(write)
                        } catch {
                            throw SwiftDBAIError.journalFailed("\(error)")
                        }
                        prepared.withLock { $0 = write }
                    }
                    if let write = prepared.withLock({ $0 }) { journaling?.journal.writeDidCommit(write) }
                    return run.result
                }
            })
        } catch {
            let failure = mapped(error, deadline: deadline)
            journaling?.journal.writeDidRollBack(statements, prepared: prepared.withLock { $0 }, error: failure)
            result = .failure(failure)
        }
        switch result {
        case .success(let mutation): span?.end(affectedRows: mutation.rowsAffected)
        case .failure(let error): span?.end(error)
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

    /// The one table statements write, for their span's name; nil when they write several.
    private static func onlyTable(_ classified: [ClassifiedStatement]) -> String? {
        let tables = Set(classified.flatMap(\.tablesWritten.keys))
        return tables.count == 1 ? tables.first : nil
    }

    /// What a guarded run did.
    private struct GuardedRun {
        var result: MutationResult
        /// Rowids updated or deleted per table (canonical names), in the order of the changes.
        var changedRowIDs: [String: [Int64]]
        /// Rowids inserted per table, in the order of the changes.
        var insertedRowIDs: [String: [Int64]]
        /// Rowids updated, deleted or inserted per table, sorted: what a signature covers.
        var touchedRowIDs: [String: [Int64]]
        /// The rows' values before and after, when the run records them.
        var rowChanges: RowChanges?
    }

    /// The rowid SQLite reports when nothing was inserted since it was set (no real row has it
    /// in practice): set before each statement, so a stale value is never reported.
    private static let noRowID = Int64.min

    /// Runs the statements in one transaction watched by a ``MutationGuard``; commits or rolls
    /// back. With a signature, the transaction commits only if the statements changed exactly
    /// the rows of the signature, whose content had not changed.
    ///
    /// `willCommit` is called inside the transaction, after the statements ran and passed every
    /// check, just before a commit: throwing rolls the transaction back.
    /// With `recordsRows`, the rows' values before and after are recorded (``RowChanges``); with
    /// `restoring`, its checks run before and after the statements, which run without triggers.
    private func runGuarded(
        _ statements: [BoundStatement], operation: SQLOperation, db: Database, commit: Bool,
        matching signature: ChangeSignature? = nil, recordsRows: Bool = false, restoring: RowRestoration? = nil,
        willCommit: (GuardedRun, DatabaseSchema) throws -> Void = { _, _ in }
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
        let recorder = recordsRows || restoring != nil ? RowChangeRecorder(schema: entry.schema, protection: entry.protection) : nil
        recorder?.install(on: db.sqliteConnection)
        defer { recorder?.remove() }

        var rowsAffected = 0
        var lastInsertRowID: Int64?
        var prepared: [String: Statement] = [:]
        var changedSincePreview: SwiftDBAIError?
        /// What the statements did so far.
        func run() -> GuardedRun {
            GuardedRun(
                result: MutationResult(
                    operation: operation, rowsAffected: rowsAffected, lastInsertRowID: lastInsertRowID,
                    elapsed: ContinuousClock.now - start),
                changedRowIDs: mutationGuard.changedRowIDs, insertedRowIDs: mutationGuard.insertedRowIDs,
                touchedRowIDs: mutationGuard.sortedTouchedRowIDs, rowChanges: recorder?.changes)
        }
        try db.inTransaction(.immediate) {
            // The content of the confirmed rows, read before anything changes them.
            let digestBefore = try signature.map { signature in
                try ChangeSignature.digest(of: signature.changedRowIDs, schema: entry.schema, db: db)
            }
            if let restoring {
                try restoring.check(.afterWrite, db: db)
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                try Self.setTriggers(enabled: false, db: db)
            }
            // Statements are prepared below, after the triggers are turned off.
            defer { if restoring != nil { try? Self.setTriggers(enabled: true, db: db) } }
            for bound in statements {
                let statement = try prepared[bound.sql] ?? db.makeStatement(sql: bound.sql)
                prepared[bound.sql] = statement
                sqlite3_set_last_insert_rowid(db.sqliteConnection, Self.noRowID)
                try statement.execute(arguments: bound.arguments.statementArguments)
                rowsAffected += db.changesCount
                // WITHOUT ROWID tables and virtual tables leave the connection's last rowid as it was.
                if operation == .insert, db.lastInsertedRowID != Self.noRowID {
                    lastInsertRowID = db.lastInsertedRowID
                }
            }
            if let signature,
               digestBefore != signature.contentDigest || rowsAffected != signature.rowsAffected
                || mutationGuard.sortedTouchedRowIDs != signature.changedRowIDs {
                changedSincePreview = .changedSincePreview(previewedRows: signature.rowsAffected, rowsNow: rowsAffected)
                return .rollback
            }
            if let restoring {
                try Self.setTriggers(enabled: true, db: db)
                try restoring.check(.beforeWrite, db: db)
                try restoring.checkOnlyRecordedRows(recorder?.changes)
            }
            guard commit else { return .rollback }
            // A violation fails the commit (the guard observes it): nothing to record then.
            if mutationGuard.violation == nil { try willCommit(run(), entry.schema) }
            return .commit
        }
        // A rolled-back run never reaches the guard's commit check: report a violation here.
        if let violation = mutationGuard.violation { throw violation }
        if let changedSincePreview { throw changedSincePreview }
        return run()
    }

    /// The record of a write about to commit: its rowids (at most ``JournaledWrite/maxRowIDs``)
    /// and the digest of their content now.
    private static func journaledWrite(
        _ statements: [BoundStatement], run: GuardedRun, journaling: Journaling, schema: DatabaseSchema, db: Database
    ) throws -> JournaledWrite {
        var rowIDs: [String: [Int64]] = [:]
        var room = JournaledWrite.maxRowIDs
        var truncated = false
        for table in run.touchedRowIDs.keys.sorted() {
            let ids = run.touchedRowIDs[table] ?? []
            if ids.count > room { truncated = true }
            guard room > 0 else { continue }
            rowIDs[table] = Array(ids.prefix(room))
            room -= min(room, ids.count)
        }
        return JournaledWrite(
            statements: statements, operation: run.result.operation, rowsAffected: run.result.rowsAffected,
            lastInsertRowID: run.result.lastInsertRowID, rowIDs: rowIDs, rowIDsTruncated: truncated,
            rowsDigest: try StableDigest.of(rowIDs, schema: schema, db: db),
            needsConfirmation: journaling.needsConfirmation, confirmedByDelegate: journaling.confirmedByDelegate,
            rowChanges: run.rowChanges ?? RowChanges())
    }

    /// A digest of the current content of the given rows, as a ``JournaledWrite/rowsDigest``
    /// reports it: equal to the record's when the rows still hold what that write left.
    ///
    /// - Throws: ``SwiftDBAIError`` when the database cannot be read.
    public func rowsDigest(of rowIDs: [String: [Int64]]) async throws(SwiftDBAIError) -> String {
        try await access { db in
            try StableDigest.of(rowIDs, schema: try self.schemaCache.current(db).schema, db: db)
        }
    }

    /// ``rowsDigest(of:)`` on the calling thread, for start-up checks before anything runs.
    package func rowsDigestNow(of rowIDs: [String: [Int64]]) throws(SwiftDBAIError) -> String {
        do {
            return try writer.queue().read { db in
                try StableDigest.of(rowIDs, schema: try self.schemaCache.current(db).schema, db: db)
            }
        } catch {
            throw mapped(error)
        }
    }

    /// The rows of a rowid table with the given rowids, at most `cap`, long values clipped.
    /// A masked column shows as NULL unless the policy reveals it; a hidden one is left out.
    private func rows(
        of table: String, rowIDs: [Int64], cap: Int, schema: DatabaseSchema, protection: ProtectedColumns, db: Database
    ) throws -> QueryResult? {
        guard let described = schema.table(named: table), described.kind == .table, !described.isWithoutRowID else { return nil }
        let ids = Array(rowIDs.prefix(cap))
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let shown = described.columns.filter { $0.visibility != .hidden && !protection.isHidden(described.name, $0.name) }
        var selected = "*"
        if !protection.isEmpty {
            // Runs on the writing connection, which has no masking authorizer: the statement masks.
            let reveals = policy.columnProtection.revealsMasked
            selected = shown.map { column in
                let name = SQLIdentifier.quote(column.name)
                return !reveals && protection.isMasked(described.name, column.name) ? "NULL AS \(name)" : name
            }.joined(separator: ", ")
        }
        let sql = "SELECT \(selected) FROM main.\(SQLIdentifier.quote(described.name)) WHERE rowid IN (\(placeholders)) ORDER BY rowid"
        guard !ids.isEmpty else {
            return QueryResult(
                columns: shown.filter { $0.visibility == .normal }
                    .map { QueryColumn(name: $0.name, declaredType: $0.declaredType) },
                rows: [], sql: sql)
        }
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(StatementArguments(ids))
        // A preview shows the rows a write changes, however wide: its first row is always kept.
        var reader = ResultReader(limits: limits, maxRows: cap)
        reader.refusesOversizedRows = false
        var result = try reader.read(statement, sql: sql)
        if rowIDs.count > cap {
            result.truncated = true
            result.truncationReason = .rows
        }
        return result
    }
}

/// What a write would change, computed by running it in a transaction that is rolled back.
public struct WritePreview: Sendable, Hashable {
    /// Rows the statements would insert, update or delete themselves.
    public var rowsAffected: Int
    /// The current content of the rows an update or delete would change, or an insert would
    /// overwrite (`REPLACE`), in its target table (at most the row cap); nil for tables without
    /// rowid.
    public var affectedRows: QueryResult?
    /// What a confirmation of this preview covers: pass it to
    /// ``SQLExecutor/execute(_:expecting:confirmed:matching:)``.
    public var signature: ChangeSignature
}
