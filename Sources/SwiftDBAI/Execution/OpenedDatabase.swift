import GRDB

/// A database file opened for a ``SQLExecutor``, with its schema already read: build the safety
/// policy from ``schema`` (to check table names, say), then the executor, with one opening and
/// one introspection.
///
/// ```swift
/// let opened = try OpenedDatabase(path: "app.sqlite", readOnly: true)
/// let visible = opened.schema.tables.map(\.name).filter { !$0.hasPrefix("internal_") }
/// let executor = try SQLExecutor(
///     opened, policy: SafetyPolicy(validators: [TableAllowlistValidator(visible)]))
/// ```
public struct OpenedDatabase: Sendable {
    /// The path as given.
    public let path: String
    /// The schema as the file holds it (every table: the policy decides what is visible).
    public let schema: DatabaseSchema
    /// The limits the connection was opened with (busy timeout, value size).
    public let limits: ExecutionLimits
    /// The extensions loaded on every connection.
    public let extensions: [SQLiteExtension]
    /// False when ``schema`` holds names and kinds only, or nothing (``SchemaReading``).
    package let isSchemaComplete: Bool
    let connection: WriterConnection

    /// Opens the file at `path` (never creating it) and reads its schema, which also recovers a
    /// hot journal when the connection may write.
    ///
    /// - Parameters:
    ///   - readOnly: Open the file read-only (`SQLITE_OPEN_READONLY`), as an executor that never
    ///     writes should.
    ///   - extensions: loaded, in order, on this connection and on every connection the executor
    ///     opens or classifies statements on.
    /// - Throws: ``SwiftDBAIError``: `fileNotFound`, `emptyDatabase`, `notADatabase`, `cannotOpen`,
    ///   `extensionNotLoaded`, or the error that kept the schema from being read.
    public init(
        path: String, readOnly: Bool, limits: ExecutionLimits = ExecutionLimits(), extensions: [SQLiteExtension] = []
    ) throws(SwiftDBAIError) {
        try self.init(path: path, readOnly: readOnly, limits: limits, extensions: extensions, reading: .whole)
    }

    /// How much of the schema opening reads.
    package enum SchemaReading: Sendable {
        /// Tables, views, columns, keys and indexes: ``schema`` is complete.
        case whole
        /// The tables and views by name and kind only, in one statement.
        case names
        /// Only that the database holds a schema (its schema version, read from the file's
        /// first page): ``schema`` is empty, and the connection opens at its first use (on the
        /// same file: one replaced meanwhile is refused), so that SQLite does not parse the
        /// schema yet either. A file whose tables were all dropped passes; its first use says
        /// it is empty. With extensions, or a hot journal to recover, the connection opens now
        /// (an extension that fails to load is an error of opening) and checks that the schema
        /// holds a table or view.
        case presence
    }

    /// Opens the file as ``init(path:readOnly:limits:extensions:)`` does, reading only as much of
    /// the schema as `reading` says; an executor made from an incomplete schema reads the whole
    /// schema at its first access, so that opening a schema of thousands of tables stays quick.
    ///
    /// - Throws: ``SwiftDBAIError`` as ``init(path:readOnly:limits:extensions:)``.
    package init(
        path: String, readOnly: Bool, limits: ExecutionLimits = ExecutionLimits(), extensions: [SQLiteExtension] = [],
        reading: SchemaReading
    ) throws(SwiftDBAIError) {
        self.path = path
        self.limits = limits
        self.extensions = extensions
        self.isSchemaComplete = reading == .whole
        /// Opens the connection; `identity`: the file must still be the one checked then.
        let open = { @Sendable (identity: [UInt64]?) throws(SwiftDBAIError) -> DatabaseQueue in
            try DatabaseOpener.open(
                path: path, readOnly: readOnly, busyTimeout: limits.busyTimeout.seconds, maxValueBytes: limits.maxValueBytes,
                extensions: extensions, expecting: identity)
        }
        if reading == .presence, extensions.isEmpty {
            do {
                let (version, file) = try DatabaseOpener.schemaVersion(ofFileAt: path, busyTimeout: limits.busyTimeout.seconds)
                schema = DatabaseSchema(tables: [], schemaVersion: version)
                connection = WriterConnection(path: path) { () throws(SwiftDBAIError) -> DatabaseQueue in try open(file.identity) }
                return
            } catch let error where error == .hotJournal(path: path) && !readOnly {
                // A connection that may write rolls the journal back as it opens: open it now.
            }
        }
        let queue = try open(nil)
        do {
            let introspector = SchemaIntrospector(includesRowCounts: false)
            schema = try queue.read { db in
                switch reading {
                case .whole: try introspector.introspect(db)
                case .names: try introspector.tableNames(db)
                case .presence: try introspector.presence(db)
                }
            }
        } catch {
            try? queue.close()
            throw SwiftDBAIError(error, path: path)
        }
        connection = WriterConnection(queue)
    }
}

extension SQLExecutor {
    /// An executor on an opened database, reusing the schema it read.
    ///
    /// - Parameter descriptions: descriptions of tables and columns, laid over the schema.
    /// - Throws: ``SwiftDBAIError`` when the schema cannot be read again after a change.
    public convenience init(
        _ opened: OpenedDatabase, policy: SafetyPolicy = SafetyPolicy(), delegate: (any SQLExecutionDelegate)? = nil,
        descriptions: SchemaDescriptions = SchemaDescriptions()
    ) throws(SwiftDBAIError) {
        try self.init(
            writer: opened.connection, policy: policy, limits: opened.limits, delegate: delegate,
            knownSchema: opened.isSchemaComplete ? opened.schema : nil, extensions: opened.extensions,
            descriptions: descriptions, readsSchemaNow: opened.isSchemaComplete)
    }
}
