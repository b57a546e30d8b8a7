import Foundation
import GRDB
import SwiftDBAIPrimitives

/// Runs SQL against one SQLite database under a ``SafetyPolicy`` and ``ExecutionLimits``.
///
/// Every statement — raw SQL or built by ``StructuredStatementBuilder`` — is classified by
/// SQLite's compiler (``SQLStatementClassifier``), authorized by the policy, and run with a row
/// cap and a timeout:
///
/// - reads run in a read-only transaction (GRDB `read`, `PRAGMA query_only`), on a connection
///   opened read-only when the allowlist allows no write;
/// - writes run in one transaction watched by a transaction observer that rolls everything back
///   if any change — triggers and foreign-key actions included — falls outside the policy;
/// - destructive statements (``MutationPolicy/operationsRequiringConfirmation``) run only when
///   the caller says they were confirmed, or the ``SQLExecutionDelegate`` confirms them.
///
/// Task cancellation interrupts the running statement.
///
/// ```swift
/// let executor = try SQLExecutor(path: "app.sqlite", policy: SafetyPolicy(allowlist: .readOnly))
/// let result = try await executor.query("SELECT * FROM Album WHERE ArtistId = ?", arguments: [1])
/// ```
public final class SQLExecutor: Sendable {
    /// The policy every statement must satisfy.
    public let policy: SafetyPolicy
    /// The row cap and timeout of every statement.
    public let limits: ExecutionLimits
    /// Hooks for confirmation and auditing; nil means destructive statements need `confirmed: true`.
    public let delegate: (any SQLExecutionDelegate)?
    /// Records every write before it commits (an audit log); nil records nothing.
    public let journal: (any WriteJournal)?

    /// The connection that writes (and reads, when there is no reader pool), opened at its
    /// first use when the executor was made from a database opened with its schema unread.
    let writer: WriterConnection
    /// Read-only connections for reads that run side by side; nil for a database given as a queue.
    let readers: ReaderPool?
    /// Orders database accesses: reads together (up to the pool's size), writes alone.
    let gate: TurnQueue
    let schemaCache: SchemaCache
    /// The database's name in traces (`db.namespace`): its file's name.
    let databaseName: String

    /// How many reads run at once on a database opened by path.
    static let concurrentReads = 4

    /// Opens the database at `path` without side effects and prepares its schema.
    ///
    /// The file is opened read-only when the policy's allowlist allows no write. Reads run on
    /// up to four read-only connections at once, so a slow read does not hold up the others.
    ///
    /// - Throws: ``SwiftDBAIError/fileNotFound(path:)``, ``SwiftDBAIError/notADatabase(path:)``,
    ///   ``SwiftDBAIError/emptyDatabase(path:)``, ``SwiftDBAIError/hotJournal(path:)`` or
    ///   ``SwiftDBAIError/cannotOpen(path:reason:)``.
    public convenience init(
        path: String, policy: SafetyPolicy = SafetyPolicy(), limits: ExecutionLimits = ExecutionLimits(),
        delegate: (any SQLExecutionDelegate)? = nil
    ) throws(SwiftDBAIError) {
        try self.init(
            OpenedDatabase(path: path, readOnly: !policy.allowlist.allowsWrites, limits: limits), policy: policy,
            delegate: delegate)
    }

    /// Wraps an open GRDB database queue and prepares its schema. Statements run one at a time
    /// on that queue.
    ///
    /// - Parameters:
    ///   - extensions: extensions the queue's connection has loaded (or that are loaded on it
    ///     now, when it has not): statements are classified with them too.
    ///   - descriptions: descriptions of tables and columns, laid over the schema.
    /// - Throws: ``SwiftDBAIError/emptyDatabase(path:)`` when the database holds no table or view,
    ///   ``SwiftDBAIError/extensionNotLoaded(path:reason:)``, or another ``SwiftDBAIError`` when
    ///   its schema cannot be read.
    public convenience init(
        database: DatabaseQueue, policy: SafetyPolicy = SafetyPolicy(), limits: ExecutionLimits = ExecutionLimits(),
        delegate: (any SQLExecutionDelegate)? = nil, extensions: [SQLiteExtension] = [],
        descriptions: SchemaDescriptions = SchemaDescriptions()
    ) throws(SwiftDBAIError) {
        let loaded: Result<Void, SwiftDBAIError> = database.inDatabase { db in
            DatabaseOpener.applyLimits(to: db.sqliteConnection, maxValueBytes: limits.maxValueBytes)
            return Result { () throws(SwiftDBAIError) in try SQLiteExtension.load(extensions, into: db.sqliteConnection) }
        }
        try loaded.get()
        try self.init(
            writer: WriterConnection(database), policy: policy, limits: limits, delegate: delegate, knownSchema: nil, extensions: extensions,
            descriptions: descriptions)
    }

    /// As ``init(database:policy:limits:delegate:)``, reusing a schema the caller already
    /// introspected (no second introspection when it is still current). A database opened from
    /// a file gets a pool of read-only connections. Without `readsSchemaNow`, the schema is read
    /// and its classifier built at the first access instead, so that opening costs the same
    /// whatever the size of the schema.
    init(
        writer: WriterConnection, policy: SafetyPolicy, limits: ExecutionLimits,
        delegate: (any SQLExecutionDelegate)?, knownSchema: DatabaseSchema?, extensions: [SQLiteExtension] = [],
        descriptions: SchemaDescriptions = SchemaDescriptions(), readsSchemaNow: Bool = true
    ) throws(SwiftDBAIError) {
        self.writer = writer
        self.policy = policy
        self.limits = limits
        self.delegate = delegate
        journal = nil
        self.schemaCache = SchemaCache(policy: policy, extensions: extensions, descriptions: descriptions)
        let path = writer.path
        databaseName = path.split(separator: "/").last.map(String.init) ?? path
        let isFile = !path.isEmpty && path != ":memory:" && !path.hasPrefix("file:")
        readers = isFile
            ? ReaderPool(
                path: path,
                configuration: DatabaseOpener.configuration(
                    readOnly: true, busyTimeout: limits.busyTimeout.seconds, maxValueBytes: limits.maxValueBytes,
                    extensions: extensions),
                capacity: Self.concurrentReads, masksColumns: !policy.columnProtection.isEmpty)
            : nil
        gate = TurnQueue(maxShared: isFile ? Self.concurrentReads : 1)
        guard readsSchemaNow else { return }
        do {
            _ = try writer.queue().read { db in try schemaCache.current(db, known: knownSchema) }
        } catch {
            throw SwiftDBAIError(error, path: path)
        }
    }

    private init(
        sharing other: SQLExecutor, policy: SafetyPolicy, delegate: (any SQLExecutionDelegate)?, journal: (any WriteJournal)?
    ) {
        writer = other.writer
        readers = other.readers
        gate = other.gate
        self.policy = policy
        limits = other.limits
        schemaCache = other.schemaCache
        databaseName = other.databaseName
        self.delegate = delegate
        self.journal = journal
    }

    /// The same executor — database, connections, policy, limits, cached schema and journal —
    /// with another delegate.
    public func withDelegate(_ delegate: (any SQLExecutionDelegate)?) -> SQLExecutor {
        SQLExecutor(sharing: self, policy: policy, delegate: delegate, journal: journal)
    }

    /// The same executor with another ``WriteJournal``: every write it commits is recorded there
    /// first, and a write the journal cannot record is rolled back.
    public func withJournal(_ journal: (any WriteJournal)?) -> SQLExecutor {
        SQLExecutor(sharing: self, policy: policy, delegate: delegate, journal: journal)
    }

    /// The same executor, allowing only the operations both its allowlist and `operations`
    /// allow: what a caller with narrower rights (an OAuth token's scopes) may run. Every
    /// statement is still classified by SQLite, so a write reached through a trigger or a
    /// foreign-key action needs its own operation too.
    public func allowing(_ operations: Set<SQLOperation>) -> SQLExecutor {
        var policy = policy
        policy.allowlist = OperationAllowlist(policy.allowlist.operations.intersection(operations))
        return SQLExecutor(sharing: self, policy: policy, delegate: delegate, journal: journal)
    }

    /// The same executor, reading the policy's masked columns in the clear (a caller granted
    /// `dbai:unmask`): ``ColumnProtection/revealsMasked``. Hidden columns stay hidden.
    public func revealingMaskedColumns() -> SQLExecutor {
        var policy = policy
        policy.columnProtection.revealsMasked = true
        return SQLExecutor(sharing: self, policy: policy, delegate: delegate, journal: journal)
    }

    /// The same executor, where exactly these write operations need confirmation (by the
    /// delegate, or `confirmed: true`) instead of those of the policy's ``MutationPolicy``.
    public func confirming(_ operations: Set<SQLOperation>) -> SQLExecutor {
        var policy = policy
        policy.mutationPolicy.operationsRequiringConfirmation = operations
        return SQLExecutor(sharing: self, policy: policy, delegate: delegate, journal: journal)
    }

    /// Interrupts every statement running now (reads and writes); interrupted writes roll back.
    /// For a prompt shutdown: the calls waiting on them fail with ``SwiftDBAIError/cancelled``.
    public func interruptAll() {
        writer.ifOpen?.interrupt()
        readers?.interrupt()
    }

    /// Waits for the running statements, then closes the connections. Later calls fail.
    public func close() async {
        _ = try? await gate.run(.exclusive) {
            readers?.close()
            writer.close()
        }
    }

    /// The path of the database file.
    public var path: String { writer.path }

    // MARK: - Schema

    /// The schema as the policy lets callers see it: tables hidden by a
    /// ``TableAllowlistValidator`` are left out. Refreshed after any schema change.
    ///
    /// - Parameter includingRowCounts: also count rows (exact up to
    ///   ``RowCountEstimate/exactLimit`` per table); costs a scan of small tables.
    /// - Throws: ``SwiftDBAIError``.
    public func schema(includingRowCounts: Bool = false) async throws(SwiftDBAIError) -> DatabaseSchema {
        try await access { db in
            var schema = try self.schemaCache.current(db).visibleSchema
            guard includingRowCounts else { return schema }
            let counts = try SchemaIntrospector.rowCounts(db, of: schema.tables)
            for position in schema.tables.indices {
                schema.tables[position].rowCount = counts[SQLIdentifier.foldCase(schema.tables[position].name)]
            }
            return schema
        }
    }

    /// The row counts of some visible tables, by folded name (views and unknown or hidden names
    /// have none): `sqlite_stat1`'s where `ANALYZE` recorded them, else counted up to
    /// ``RowCountEstimate/exactLimit`` rows (see ``RowCountEstimate/Source``).
    ///
    /// - Throws: ``SwiftDBAIError``.
    public func rowCounts(of tables: [String]) async throws(SwiftDBAIError) -> [String: RowCountEstimate] {
        try await access { db in
            let schema = try self.schemaCache.current(db).visibleSchema
            return try SchemaIntrospector.rowCounts(db, of: tables.compactMap { schema.table(named: $0) })
        }
    }

    /// The schema version the database reads now (`PRAGMA schema_version`): it changes with
    /// every change to the schema, by this process or another one.
    ///
    /// - Throws: ``SwiftDBAIError``.
    public func schemaVersion() async throws(SwiftDBAIError) -> Int {
        try await access { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0 }
    }

    /// A compact description of the visible schema for a language-model prompt: `CREATE`
    /// statements with keys and, when `sampleRowCount > 0`, a few rows per table.
    ///
    /// - Parameter tables: describe only these tables and views (nil for all).
    /// - Throws: ``SwiftDBAIError``.
    public func schemaDescription(sampleRowCount: Int = 0, tables: Set<String>? = nil) async throws(SwiftDBAIError) -> String {
        try await access { db in
            var schema = try self.schemaCache.current(db).visibleSchema
            if let tables { schema = schema.restricted(to: tables) }
            return try SchemaDescriber(sampleRowCount: sampleRowCount).describe(schema, samplesFrom: db)
        }
    }

    // MARK: - Classification

    /// Classifies and authorizes one statement without running it.
    ///
    /// - Throws: ``SwiftDBAIError/rejected(_:)`` when the statement may not run under the policy.
    public func check(_ sql: String) async throws(SwiftDBAIError) -> ClassifiedStatement {
        try await access { db in try self.authorized(sql, in: db) }
    }

    /// Classifies one statement now, on the calling thread, without authorizing it: for checks
    /// made while a server starts (canned queries), before any call can run.
    ///
    /// - Throws: ``SwiftDBAIError/rejected(_:)`` when the statement does not compile or is refused
    ///   whatever the policy, or another ``SwiftDBAIError``.
    package func classifyNow(_ sql: String) throws(SwiftDBAIError) -> ClassifiedStatement {
        do {
            return try writer.queue().read { db in try self.schemaCache.classify(sql, in: db) }
        } catch {
            throw mapped(error)
        }
    }

    /// The statement classified (not authorized) in a read access, in its turn: what it would do,
    /// whatever the policy says of it.
    ///
    /// - Throws: ``SwiftDBAIError/rejected(_:)`` when it does not compile or is refused whatever
    ///   the policy.
    package func classify(_ sql: String) async throws(SwiftDBAIError) -> ClassifiedStatement {
        try await access { db in try self.schemaCache.classify(sql, in: db) }
    }

    /// The classified and authorized statement, compiled against the connection's current schema.
    func authorized(_ sql: String, in db: Database) throws -> ClassifiedStatement {
        let (statement, protection) = try schemaCache.classifyProtected(sql, in: db)
        try policy.authorize(statement)
        try protection.authorize(statement, revealsMasked: policy.columnProtection.revealsMasked)
        return statement
    }

    // MARK: - Access

    /// Runs `body` in a read access and maps every error to ``SwiftDBAIError``.
    func access<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SwiftDBAIError) -> T {
        do {
            return try await reading(body)
        } catch {
            throw mapped(error)
        }
    }

    /// Runs `body` in a read-only transaction, on a reader of the pool when there is one, in
    /// its turn among the executor's accesses.
    func reading<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await gate.run(.shared) {
            if !policy.columnProtection.isEmpty {
                // Only a connection with the masking authorizer may read: never the writer.
                guard let readers else {
                    throw SwiftDBAIError.cannotOpen(
                        path: writer.path,
                        reason: "masked or hidden columns need a database file (they are read through connections of their own)")
                }
                let reveals = policy.columnProtection.revealsMasked
                return try await readers.read(body) { db in
                    try self.schemaCache.current(db).readMask(revealingMasked: reveals)
                }
            }
            if let readers { return try await readers.read(body, fallback: writer) }
            return try await writer.queue().read(body)
        }
    }

    /// Runs `body` on the writing connection, outside any transaction, alone.
    func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await gate.run(.exclusive) {
            try await writer.queue().writeWithoutTransaction(body)
        }
    }

    /// Maps any error to a ``SwiftDBAIError``.
    func mapped(_ error: any Error) -> SwiftDBAIError {
        SwiftDBAIError(error, path: writer.path, valueLimit: limits.maxValueBytes)
    }

    /// Maps an error raised during a statement, telling a timeout from a cancellation.
    func mapped(_ error: any Error, deadline: StatementDeadline) -> SwiftDBAIError {
        let mapped = mapped(error)
        if mapped == .cancelled, deadline.didExpire {
            return .timeout(milliseconds: Int(limits.timeout.milliseconds.rounded()))
        }
        return mapped
    }
}
