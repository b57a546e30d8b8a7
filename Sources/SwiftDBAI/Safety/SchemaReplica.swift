import GRDBSQLite

/// A private in-memory SQLite connection that holds a copy of a database's schema and no data.
///
/// The classifier compiles statements here, so classification never touches the user's file,
/// takes no lock, and sees exactly the tables, views, indexes and triggers of the real database.
final class SchemaReplica {
    let connection: OpaquePointer
    /// Objects that could not be replayed (an unknown virtual-table module, a broken view).
    private(set) var skippedObjects: [String] = []
    /// The virtual-table modules this SQLite knows (`json_each`, `dbstat`, `fts5`…), folded.
    private(set) var moduleNames: Set<String> = []

    /// Replays `schema` into a new in-memory connection.
    ///
    /// - Parameter resolvesNamesOnly: replay tables, views and indexes only, with foreign keys not
    ///   enforced: the copy then serves to resolve names, not to tell what a statement does.
    /// - Parameter extensions: loaded first, so that their modules and functions compile here.
    init(schema: DatabaseSchema, resolvesNamesOnly: Bool = false, extensions: [SQLiteExtension] = []) throws(SwiftDBAIError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(":memory:", &handle, flags, nil) == SQLITE_OK, let handle else {
            if let handle { sqlite3_close(handle) }
            throw SwiftDBAIError.cannotOpen(path: ":memory:", reason: "the classifier could not open its private connection")
        }
        connection = handle
        do {
            try SQLiteExtension.load(extensions, into: handle)
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
        // Foreign-key actions and their effects are compiled only when foreign keys are enforced,
        // as they are on every connection SwiftDBAI opens.
        if !resolvesNamesOnly { execute("PRAGMA foreign_keys = ON") }
        moduleNames = Set(strings("SELECT name FROM pragma_module_list").map(SQLIdentifier.foldCase))
        replay(schema, includingTriggers: !resolvesNamesOnly)
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    private func replay(_ schema: DatabaseSchema, includingTriggers: Bool) {
        var pending: [(name: String, sql: String, fallback: String?)] = []
        // Virtual tables first: a module creates its shadow tables itself (sqlite-vec's, when
        // SQLite does not report them as shadow tables), which then already exist below.
        for table in schema.tables where table.kind == .virtual {
            pending.append((table.name, table.sql, Self.plainTableDDL(for: table)))
        }
        for table in schema.tables where table.kind == .table {
            pending.append((table.name, table.sql, nil))
        }
        for table in schema.tables where table.kind == .view {
            pending.append((table.name, table.sql, nil))
        }
        for table in schema.tables {
            for index in table.indexes {
                if let sql = index.sql { pending.append((index.name, sql, nil)) }
            }
        }
        for trigger in schema.triggers where includingTriggers {
            pending.append((trigger.name, trigger.sql, nil))
        }
        // Views and triggers may depend on objects created later: replay until nothing progresses.
        while !pending.isEmpty {
            var failed: [(name: String, sql: String, fallback: String?)] = []
            for object in pending where !execute(object.sql) && !exists(object.name) {
                failed.append(object)
            }
            if failed.count == pending.count {
                for object in failed {
                    if let fallback = object.fallback, execute(fallback) { continue }
                    skippedObjects.append(object.name)
                }
                break
            }
            pending = failed
        }
        // Connect virtual tables and resolve the columns of views now, so that their modules' own
        // statements, and the statements SQLite prepares to expand a view the first time one is
        // needed (`PRAGMA table_list` does), are not mistaken for the statement being classified.
        for table in schema.tables where table.kind != .table {
            execute("SELECT 0 FROM \(SQLIdentifier.quote(table.name)) LIMIT 0")
        }
    }

    /// A plain table with the columns of a virtual table whose module is not available here.
    private static func plainTableDDL(for table: TableSchema) -> String {
        let columns = table.columns.map(\.name).map(SQLIdentifier.quote).joined(separator: ", ")
        return "CREATE TABLE \(SQLIdentifier.quote(table.name))(\(columns.isEmpty ? "_" : columns))"
    }

    /// Whether the copy already holds an object of that name.
    private func exists(_ name: String) -> Bool {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT 1 FROM sqlite_schema WHERE name = ?1", -1, &statement, nil) == SQLITE_OK,
              let statement
        else { return false }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, name, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        return sqlite3_step(statement) == SQLITE_ROW
    }

    /// The first column of every row of a query, as text.
    private func strings(_ sql: String) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        var values: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            if let text = sqlite3_column_text(statement, 0) { values.append(String(cString: text)) }
        }
        return values
    }

    @discardableResult
    func execute(_ sql: String) -> Bool {
        sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK
    }
}
