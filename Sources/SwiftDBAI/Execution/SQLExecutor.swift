import Foundation
import GRDB

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
///   the caller says they were confirmed, or the ``ToolExecutionDelegate`` confirms them.
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
    public let delegate: (any ToolExecutionDelegate)?

    let database: DatabaseQueue
    let schemaCache: SchemaCache

    /// Opens the database at `path` without side effects and prepares its schema.
    ///
    /// The file is opened read-only when the policy's allowlist allows no write.
    ///
    /// - Throws: ``SwiftDBAIError/fileNotFound(path:)``, ``SwiftDBAIError/notADatabase(path:)``,
    ///   ``SwiftDBAIError/emptyDatabase(path:)`` or ``SwiftDBAIError/cannotOpen(path:reason:)``.
    public convenience init(
        path: String, policy: SafetyPolicy = SafetyPolicy(), limits: ExecutionLimits = ExecutionLimits(),
        delegate: (any ToolExecutionDelegate)? = nil
    ) throws(SwiftDBAIError) {
        let database = try DatabaseOpener.open(
            path: path, readOnly: !policy.allowlist.allowsWrites, busyTimeout: limits.busyTimeout.milliseconds / 1000)
        try self.init(database: database, policy: policy, limits: limits, delegate: delegate)
    }

    /// Wraps an open GRDB database queue and prepares its schema.
    ///
    /// - Throws: ``SwiftDBAIError/emptyDatabase(path:)`` when the database holds no table or view,
    ///   or another ``SwiftDBAIError`` when its schema cannot be read.
    public convenience init(
        database: DatabaseQueue, policy: SafetyPolicy = SafetyPolicy(), limits: ExecutionLimits = ExecutionLimits(),
        delegate: (any ToolExecutionDelegate)? = nil
    ) throws(SwiftDBAIError) {
        try self.init(database: database, policy: policy, limits: limits, delegate: delegate, knownSchema: nil)
    }

    /// As ``init(database:policy:limits:delegate:)``, reusing a schema the caller already
    /// introspected (no second introspection when it is still current).
    package init(
        database: DatabaseQueue, policy: SafetyPolicy, limits: ExecutionLimits,
        delegate: (any ToolExecutionDelegate)?, knownSchema: DatabaseSchema?
    ) throws(SwiftDBAIError) {
        self.database = database
        self.policy = policy
        self.limits = limits
        self.delegate = delegate
        self.schemaCache = SchemaCache()
        do {
            _ = try database.read { db in try schemaCache.current(db, known: knownSchema) }
        } catch {
            throw SwiftDBAIError(error, path: database.path)
        }
    }

    private init(sharing other: SQLExecutor, delegate: (any ToolExecutionDelegate)?) {
        database = other.database
        policy = other.policy
        limits = other.limits
        schemaCache = other.schemaCache
        self.delegate = delegate
    }

    /// The same executor — database, policy, limits and cached schema — with another delegate.
    public func withDelegate(_ delegate: (any ToolExecutionDelegate)?) -> SQLExecutor {
        SQLExecutor(sharing: self, delegate: delegate)
    }

    /// The path of the database file.
    public var path: String { database.path }

    // MARK: - Schema

    /// The schema as the policy lets callers see it: tables hidden by a
    /// ``TableAllowlistValidator`` are left out. Refreshed after any schema change.
    ///
    /// - Parameter includingRowCounts: also count rows (exact up to
    ///   ``RowCountEstimate/exactLimit`` per table); costs a scan of small tables.
    /// - Throws: ``SwiftDBAIError``.
    public func schema(includingRowCounts: Bool = false) async throws(SwiftDBAIError) -> DatabaseSchema {
        let schema: DatabaseSchema = try await access { db in
            includingRowCounts
                ? try SchemaIntrospector(includesRowCounts: true).introspect(db)
                : try self.schemaCache.current(db).schema
        }
        return policy.visibleSchema(schema)
    }

    /// A compact description of the visible schema for a language-model prompt: `CREATE`
    /// statements with keys and, when `sampleRowCount > 0`, a few rows per table.
    ///
    /// - Parameter tables: describe only these tables and views (nil for all).
    /// - Throws: ``SwiftDBAIError``.
    public func schemaDescription(sampleRowCount: Int = 0, tables: Set<String>? = nil) async throws(SwiftDBAIError) -> String {
        try await access { db in
            var schema = self.policy.visibleSchema(try self.schemaCache.current(db).schema)
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

    /// The classified and authorized statement, compiled against the connection's current schema.
    func authorized(_ sql: String, in db: Database) throws -> ClassifiedStatement {
        let statement = try schemaCache.classify(sql, in: db)
        try policy.authorize(statement)
        return statement
    }

    // MARK: - Access

    /// Runs `body` in a read access and maps every error to ``SwiftDBAIError``.
    func access<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(SwiftDBAIError) -> T {
        do {
            return try await database.read(body)
        } catch {
            throw SwiftDBAIError(error, path: database.path)
        }
    }

    /// Maps an error raised during a statement, telling a timeout from a cancellation.
    func mapped(_ error: any Error, deadline: StatementDeadline) -> SwiftDBAIError {
        let mapped = SwiftDBAIError(error, path: database.path)
        if mapped == .cancelled, deadline.didExpire {
            return .timeout(milliseconds: Int(limits.timeout.milliseconds.rounded()))
        }
        return mapped
    }
}
