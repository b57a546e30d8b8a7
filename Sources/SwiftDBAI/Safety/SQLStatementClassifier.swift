import Foundation
import GRDBSQLite
import SwiftDBAIPrimitives

/// Decides what one SQL statement does by compiling it with SQLite, never by reading its text.
///
/// The classifier compiles the statement on a private in-memory copy of the schema
/// (``DatabaseSchema``), with an SQLite authorizer that records every table read or written —
/// through views, subqueries, CTEs, triggers and foreign-key actions — every function and PRAGMA,
/// and every schema, transaction or attachment action. From that record it returns a
/// ``ClassifiedStatement`` or an ``SQLRejection`` that says why the statement can never run
/// through a tool, whatever the policy.
///
/// ```swift
/// let classifier = try SQLStatementClassifier(schema: schema)
/// let statement = try classifier.classify("WITH x AS (SELECT 1) DELETE FROM t")
/// statement.operation // .delete
/// ```
///
/// With a visibility rule (``init(schema:isVisible:)``), names are first resolved against a copy
/// of the schema that holds only the visible tables: a statement that names a hidden table fails
/// exactly as if the table did not exist, and no message ever names a hidden table.
///
/// Thread-safe: compilations are serialized on the private connection.
public final class SQLStatementClassifier: @unchecked Sendable {
    /// The schema the classifier compiles against.
    public let schema: DatabaseSchema
    /// The canonical names of the tables and views callers may see, or nil when nothing is
    /// hidden. A view is visible only when it and every table it reads are.
    public private(set) var visibleTableNames: Set<String>?

    /// Held while a statement compiles: the replicas' connections and the recorder serve one
    /// compilation at a time. (They hold SQLite handles, hence `@unchecked Sendable` above.)
    private let compiling = Mutex(())
    private let replica: SchemaReplica
    /// The visible tables alone (no triggers, no foreign keys), where names are resolved first.
    private var visibleReplica: SchemaReplica?
    private let recorder = AuthorizerRecorder()
    /// The policy's masked and hidden columns, resolved against ``schema``.
    private let protection: ProtectedColumns

    /// Functions with side effects outside the database, or that can reconfigure SQLite.
    static let forbiddenFunctions: Set<String> = [
        "load_extension", "fts3_tokenizer", "readfile", "writefile", "edit", "sqlite_dbpage",
    ]

    /// PRAGMAs that only describe the schema; they may name a table, which counts as a read.
    static let introspectionPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
        "foreign_key_list", "foreign_key_check", "collation_list", "function_list", "module_list",
        "pragma_list", "database_list", "compile_options", "integrity_check", "quick_check",
    ]

    /// PRAGMAs that may be read, never assigned.
    static let readablePragmas: Set<String> = [
        "user_version", "schema_version", "application_id", "data_version", "page_count", "page_size",
        "freelist_count", "encoding", "journal_mode", "foreign_keys", "auto_vacuum", "max_page_count",
        "busy_timeout", "query_only", "recursive_triggers", "case_sensitive_like", "cache_size",
        "synchronous", "temp_store", "locking_mode", "secure_delete", "legacy_alter_table",
    ]

    /// Introspection PRAGMAs that report on every table when they name none: `PRAGMA table_list`,
    /// `PRAGMA foreign_key_check`, `PRAGMA integrity_check(100)`.
    static let wholeSchemaPragmas: Set<String> = [
        "table_list", "foreign_key_check", "integrity_check", "quick_check",
    ]

    /// Introspection PRAGMAs whose table-valued function takes a table or index argument.
    static let tableArgumentPragmas: Set<String> = [
        "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
        "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
    ]

    /// Eponymous virtual tables that are pure functions of their arguments.
    static let tableValuedFunctions: Set<String> = ["json_each", "json_tree"]

    /// Creates a classifier for a schema.
    ///
    /// - Parameter isVisible: which tables and views callers may see (nil: all of them). A
    ///   statement naming another one is refused as if it did not exist; a view reading one is
    ///   hidden too.
    /// - Parameter extensions: loaded into the private connection before the schema is copied,
    ///   so that their functions and virtual-table modules compile as they do on the database.
    /// - Throws: ``SwiftDBAIError/cannotOpen(path:reason:)`` if the private connection cannot open,
    ///   ``SwiftDBAIError/extensionNotLoaded(path:reason:)`` if an extension does not load.
    public convenience init(
        schema: DatabaseSchema, isVisible: ((String) -> Bool)? = nil, extensions: [SQLiteExtension] = []
    ) throws(SwiftDBAIError) {
        try self.init(schema: schema, isVisible: isVisible, protection: .none, extensions: extensions)
    }

    /// As ``init(schema:isVisible:extensions:)``, with hidden columns left out of the names
    /// statements resolve against (a statement naming one fails as if it did not exist), and the
    /// views that read one hidden.
    init(
        schema: DatabaseSchema, isVisible: ((String) -> Bool)?, protection: ProtectedColumns, extensions: [SQLiteExtension]
    ) throws(SwiftDBAIError) {
        self.schema = schema
        self.protection = protection
        self.replica = try SchemaReplica(schema: schema, extensions: extensions)
        recorder.install(on: replica.connection)
        guard isVisible != nil || !protection.isEmpty else { return }
        let visible = visibleTables(isVisible ?? { _ in true }, protection: protection)
        if visible.count < schema.tables.count {
            visibleTableNames = visible
        }
        if visible.count < schema.tables.count || !protection.isEmpty {
            visibleReplica = try SchemaReplica(
                schema: schema.restricted(to: visible).protected(by: protection, forNames: true), resolvesNamesOnly: true,
                extensions: extensions)
        }
    }

    /// Names of schema objects that the private copy could not reproduce (for example a virtual
    /// table whose module this SQLite lacks). Statements that use them fail to compile.
    public var skippedObjects: [String] { replica.skippedObjects }

    /// Classifies exactly one statement.
    ///
    /// - Throws: ``SQLRejection`` when the text is empty, holds several statements, does not
    ///   compile, or does something no tool may do (schema changes, transaction control,
    ///   ATTACH, PRAGMA assignments, `load_extension`, VACUUM, internal tables).
    public func classify(_ sql: String) throws(SQLRejection) -> ClassifiedStatement {
        try compiling.withLock { _ throws(SQLRejection) in try classifyWithoutLock(sql) }
    }

    /// True when SQLite compiles a statement of `sql` (each one, up to a NUL, against the whole
    /// schema, hidden tables included, whatever the policy) as one that writes or changes the
    /// connection: a statement SQLite marks as not read-only, `ATTACH`, `DETACH`, or a `PRAGMA`
    /// that sets a value or is not one that only reads. `EXPLAIN` never counts. What an audit log
    /// records as a write attempt when a read path refuses it; false once a statement does not
    /// compile.
    func compilesAsWrite(_ sql: String) -> Bool {
        compiling.withLock { _ in
            recorder.reset()
            recorder.isRecording = true
            defer {
                recorder.isRecording = false
                recorder.reset()
            }
            return sql.withCString { start in
                var next: UnsafePointer<CChar>? = start
                while let current = next, current.pointee != 0 {
                    var statement: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    guard sqlite3_prepare_v3(replica.connection, current, -1, 0, &statement, &tail) == SQLITE_OK else { return false }
                    if let statement {
                        let writes = sqlite3_stmt_isexplain(statement) == 0
                            && (sqlite3_stmt_readonly(statement) == 0 || Self.changesConnection(recorder.actions))
                        sqlite3_finalize(statement)
                        if writes { return true }
                    }
                    recorder.reset()
                    next = tail
                }
                return false
            }
        }
    }

    /// `ATTACH`, `DETACH`, or a `PRAGMA` that sets a value or is not one that only reads.
    private static func changesConnection(_ actions: [AuthorizerAction]) -> Bool {
        actions.contains { action in
            switch action.code {
            case SQLITE_ATTACH, SQLITE_DETACH:
                return true
            case SQLITE_PRAGMA:
                // An introspection pragma's argument names a table (`table_info(t)`); a readable
                // one with an argument sets it.
                let name = SQLIdentifier.foldCase(action.first ?? "")
                return !introspectionPragmas.contains(name) && (action.second != nil || !readablePragmas.contains(name))
            default:
                return false
            }
        }
    }

    func classifyWithoutLock(_ sql: String) throws(SQLRejection) -> ClassifiedStatement {
        if let offset = sql.utf8.firstIndex(of: 0).map({ sql.utf8.distance(from: sql.utf8.startIndex, to: $0) }) {
            throw SQLRejection(
                .nulCharacter,
                "The SQL text holds a NUL character (\\0) at byte \(offset); SQLite would ignore everything after it. Remove it; nothing ran.")
        }
        if let visibleReplica {
            try resolveNames(sql, on: visibleReplica)
        }
        var compiled: CompiledStatement
        do {
            compiled = try compile(sql)
        } catch where visibleReplica != nil && error.code == .invalidSQL {
            // The visible names resolved, so the failure comes from what is hidden (a trigger's body).
            throw SQLRejection(.tableNotAllowed, "The statement reaches a table that is not accessible; it cannot run.")
        }
        if compiled.actions.contains(where: Self.isVirtualTableDeclaration) {
            // The first use of an eponymous virtual table (json_each, pragma_table_info…) declares
            // it, and SQLite reports that bookkeeping as writes and a read of sqlite_schema. The
            // table is declared now: compile again to see only what the statement itself does.
            compiled = try compile(sql)
        }
        var statement = try analyze(compiled, sql: sql)
        if statement.operation == .insert || statement.operation == .update {
            for table in conflictReplacementTables(sql) {
                statement.tablesWritten[table, default: []].insert(.delete)
            }
        }
        return statement
    }

    // MARK: - Compilation

    private struct CompiledStatement {
        var actions: [AuthorizerAction]
        var isReadOnly: Bool
        var isExplain: Bool
        var columnCount: Int
        var parameterNames: [String?]
        /// The result columns that come straight from a hidden column (`SELECT *`).
        var hiddenResultColumns: [Int] = []
    }

    private func compile(_ sql: String) throws(SQLRejection) -> CompiledStatement {
        let connection = replica.connection
        recorder.reset()
        recorder.isRecording = true
        defer { recorder.isRecording = false }

        let result: Result<CompiledStatement, SQLRejection> = sql.withCString { start in
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, start, -1, 0, &statement, &tail)
            guard code == SQLITE_OK else {
                let message = String(cString: sqlite3_errmsg(connection))
                return .failure(SQLRejection(.invalidSQL, "SQLite cannot compile the statement: \(message)."))
            }
            guard let statement else {
                return .failure(SQLRejection(.emptyStatement, "The SQL text holds no statement."))
            }
            defer { sqlite3_finalize(statement) }
            let parameterCount = Int(sqlite3_bind_parameter_count(statement))
            var compiled = CompiledStatement(
                actions: recorder.actions,
                isReadOnly: sqlite3_stmt_readonly(statement) != 0,
                isExplain: sqlite3_stmt_isexplain(statement) != 0,
                columnCount: Int(sqlite3_column_count(statement)),
                parameterNames: (0..<parameterCount).map { index in
                    sqlite3_bind_parameter_name(statement, Int32(index + 1)).map { String(cString: $0) }
                })
            compiled.hiddenResultColumns = hiddenResultColumns(of: statement, count: compiled.columnCount)
            if let tail, Self.holdsAnotherStatement(tail, connection: connection) {
                return .failure(SQLRejection(
                    .multipleStatements,
                    "Send exactly one statement per call; the text holds more than one (or trailing text after a `;`)."))
            }
            return .success(compiled)
        }
        return try result.get()
    }

    /// The result columns whose origin is a hidden column: where the real connection reads it
    /// as NULL, the copy of the schema still tells where each column comes from.
    private func hiddenResultColumns(of statement: OpaquePointer, count: Int) -> [Int] {
        guard !protection.hidden.isEmpty else { return [] }
        return (0..<count).filter { index in
            guard let table = sqlite3_column_table_name(statement, Int32(index)),
                  let column = sqlite3_column_origin_name(statement, Int32(index)) else { return false }
            let name = String(cString: table)
            // A recursive CTE is its own origin: judged by the column's name alone.
            guard schema.table(named: name) != nil else { return protection.isHiddenAnywhere(String(cString: column)) }
            return protection.isHidden(name, String(cString: column))
        }
    }

    /// True when the text after the first statement holds anything but white space and comments.
    private static func holdsAnotherStatement(_ tail: UnsafePointer<CChar>, connection: OpaquePointer) -> Bool {
        guard tail.pointee != 0 else { return false }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, tail, -1, 0, &statement, nil)
        defer { sqlite3_finalize(statement) }
        return code != SQLITE_OK || statement != nil
    }

    // MARK: - Analysis

    private func analyze(_ compiled: CompiledStatement, sql: String) throws(SQLRejection) -> ClassifiedStatement {
        try Self.refuseMaintenance(compiled.actions)
        var tablesRead: Set<String> = []
        var columnsRead: [String: Set<String>] = [:]
        var tablesDescribed: Set<String> = []
        var columnsReadByTriggers: [String: Set<String>] = [:]
        var tablesWritten: [String: Set<SQLOperation>] = [:]
        var directOperation: SQLOperation?

        for action in compiled.actions {
            switch action.code {
            case SQLITE_SELECT, SQLITE_RECURSIVE:
                continue

            case SQLITE_READ:
                try requireMainDatabase(action)
                guard let name = action.first else { continue }
                if isCommonTableExpressionCount(action, name: name) { continue }
                let objects = try readableObjects(named: name)
                tablesRead.formUnion(objects)
                if SQLIdentifier.foldCase(name).hasPrefix("pragma_") { tablesDescribed.formUnion(objects) }
                // A read through a view reads the view too: a view that is not allowed cannot be
                // used, even over allowed tables.
                if let source = action.source, let view = schema.table(named: source), view.kind == .view {
                    tablesRead.insert(view.name)
                }
                // The statement's own reads and its views' (a trigger's are the write's), as the
                // tables' columns (SQLite also reports a view's columns as read from the view); a
                // table read for no column (`COUNT(*)`) is there with none.
                if let table = schema.table(named: name), table.kind != .view,
                   action.source.map({ schema.table(named: $0)?.kind == .view }) ?? true {
                    var columns = columnsRead[table.name] ?? []
                    if let column = action.second, !column.isEmpty { columns.insert(table.column(named: column)?.name ?? column) }
                    columnsRead[table.name] = columns
                } else if let table = schema.table(named: name), table.kind != .view, let column = action.second, !column.isEmpty {
                    columnsReadByTriggers[table.name, default: []].insert(table.column(named: column)?.name ?? column)
                }

            case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
                guard let name = action.first, !Self.isSchemaTable(name) else {
                    // Bookkeeping of sqlite_schema while a virtual table declares itself; a real
                    // schema change is refused through its own action code.
                    continue
                }
                try requireMainDatabase(action)
                let table = try writableTable(named: name)
                let operation: SQLOperation = switch action.code {
                case SQLITE_INSERT: .insert
                case SQLITE_UPDATE: .update
                default: .delete
                }
                tablesWritten[table, default: []].insert(operation)
                if directOperation == nil, action.source == nil {
                    directOperation = operation
                }


            case SQLITE_PRAGMA:
                try requireMainDatabase(action)
                let described = try allowedPragma(action)
                tablesRead.formUnion(described)
                tablesDescribed.formUnion(described)

            case SQLITE_FUNCTION:
                let name = SQLIdentifier.foldCase(action.second ?? "")
                if Self.forbiddenFunctions.contains(name) {
                    throw SQLRejection(.functionNotAllowed, "The function \(name)() is never allowed: it acts outside the data.")
                }

            case SQLITE_TRANSACTION, SQLITE_SAVEPOINT:
                throw SQLRejection(
                    .transactionControl,
                    "Transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE) is not allowed: every call runs in its own transaction.")

            case SQLITE_ATTACH, SQLITE_DETACH:
                throw SQLRejection(.attachedDatabase, "ATTACH, DETACH and VACUUM are not allowed: only the open database is reachable.")

            case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
                 SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
                 SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
                 SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
                 SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE:
                throw SQLRejection(.schemaChange, "Schema changes (CREATE, DROP, ALTER) are not allowed through a query or a tool.")

            default:
                throw SQLRejection(
                    .unsupportedStatement,
                    "Only SELECT, INSERT, UPDATE and DELETE statements are allowed (not VACUUM, ANALYZE, REINDEX).")
            }
        }

        let operation: SQLOperation
        if compiled.isExplain {
            guard tablesWritten.isEmpty else {
                throw SQLRejection(.unsupportedStatement, "EXPLAIN is allowed for reads only.")
            }
            operation = .select
        } else if let directOperation {
            operation = directOperation
        } else if let anyWrite = tablesWritten.values.flatMap({ $0 }).min() {
            operation = anyWrite
        } else if compiled.isReadOnly && compiled.columnCount > 0 {
            operation = .select
        } else {
            throw SQLRejection(
                .unsupportedStatement,
                "Only SELECT, INSERT, UPDATE and DELETE statements are allowed; this statement is none of them.")
        }

        var classified = ClassifiedStatement(
            sql: sql, operation: operation, tablesRead: tablesRead, tablesWritten: tablesWritten,
            isReadOnly: compiled.isReadOnly, columnCount: compiled.columnCount,
            parameterCount: compiled.parameterNames.count, parameterNames: compiled.parameterNames)
        classified.columnsRead = columnsRead
        classified.tablesDescribed = tablesDescribed
        classified.columnsReadByTriggers = columnsReadByTriggers
        classified.hiddenResultColumns = compiled.hiddenResultColumns
        return classified
    }

    /// True for the read SQLite reports when a statement counts the rows of a CTE or subquery
    /// without reading its columns (`WITH x AS (…) SELECT count(*) FROM x`): no database, no
    /// column, and a name that is neither a schema object nor a built-in virtual table. What
    /// the CTE itself reads is reported separately.
    private func isCommonTableExpressionCount(_ action: AuthorizerAction, name: String) -> Bool {
        guard action.database == nil, action.second?.isEmpty ?? true else { return false }
        let folded = SQLIdentifier.foldCase(name)
        return schema.table(named: name) == nil && schema.shadowTableOwners[folded] == nil
            && !folded.hasPrefix("sqlite_") && !folded.hasPrefix("pragma_")
            && !replica.moduleNames.contains(folded)
    }

    private func requireMainDatabase(_ action: AuthorizerAction) throws(SQLRejection) {
        guard let database = action.database, database != "main" else { return }
        throw SQLRejection(
            .attachedDatabase,
            "Only the main database is reachable; \(database).\(action.first ?? "") is not.")
    }

    /// True for the bookkeeping of a virtual table declaring itself: a write to `sqlite_schema`,
    /// which no statement can perform directly (it does not compile).
    private static func isVirtualTableDeclaration(_ action: AuthorizerAction) -> Bool {
        action.code == SQLITE_UPDATE && isSchemaTable(action.first ?? "")
    }

    private static func isSchemaTable(_ name: String) -> Bool {
        let folded = SQLIdentifier.foldCase(name)
        return folded == "sqlite_master" || folded == "sqlite_schema"
            || folded == "sqlite_temp_master" || folded == "sqlite_temp_schema"
    }

    /// The canonical names of the tables and views a read reaches: the object read, the owner of a
    /// shadow table, nothing for pure table-valued functions, and every table for a table-valued
    /// PRAGMA that takes a table argument (`pragma_table_info(?)`), whose argument is known only
    /// when the statement runs. Throws a rejection for internal objects and other PRAGMAs.
    private func readableObjects(named name: String) throws(SQLRejection) -> [String] {
        if let table = schema.table(named: name) { return [table.name] }
        let folded = SQLIdentifier.foldCase(name)
        if let owner = schema.shadowTableOwners[folded] { return [owner] }
        if Self.isSchemaTable(name) { return ["sqlite_schema"] }
        if folded == "sqlite_sequence" || folded.hasPrefix("sqlite_stat") { return [folded] }
        if Self.tableValuedFunctions.contains(folded) { return [] }
        if folded.hasPrefix("pragma_") {
            let pragma = String(folded.dropFirst("pragma_".count))
            if Self.introspectionPragmas.contains(pragma) {
                return Self.tableArgumentPragmas.contains(pragma) ? schema.tableNames : []
            }
            if Self.readablePragmas.contains(pragma) { return [] }
            throw SQLRejection(.pragmaNotAllowed, "\(name) is not allowed; only read-only introspection PRAGMAs are.")
        }
        throw SQLRejection(.tableNotAllowed, "\(name) is an internal object that cannot be read.")
    }

    /// The canonical name of a table written, or a rejection for internal objects.
    private func writableTable(named name: String) throws(SQLRejection) -> String {
        if let table = schema.table(named: name) { return table.name }
        let folded = SQLIdentifier.foldCase(name)
        if let owner = schema.shadowTableOwners[folded] { return owner }
        throw SQLRejection(.tableNotAllowed, "\(name) is an internal object that cannot be written.")
    }

    /// The tables an allowed PRAGMA reports on (none for settings), or a rejection.
    private func allowedPragma(_ action: AuthorizerAction) throws(SQLRejection) -> [String] {
        let name = SQLIdentifier.foldCase(action.first ?? "")
        if Self.introspectionPragmas.contains(name) {
            // `PRAGMA table_info(t)` reveals the columns of t, `PRAGMA index_info(i)` those of the
            // table of i: they count as reading that table. `PRAGMA table_list` reads every table.
            guard let argument = action.second, Self.tableArgumentPragmas.contains(name),
                  !(Self.wholeSchemaPragmas.contains(name) && Int(argument) != nil) else {
                return Self.wholeSchemaPragmas.contains(name) ? schema.tableNames : []
            }
            // A name that is neither a table nor an index (or one that is hidden) is refused the
            // same way, so that the answer never tells a hidden table from a missing one.
            guard let table = tableNamed(byTableOrIndex: argument) else {
                throw SQLRejection(.invalidSQL, "PRAGMA \(name)(\(argument)): no such table or index: \(argument).")
            }
            return [table]
        }
        if Self.readablePragmas.contains(name), action.second == nil {
            return []
        }
        if action.second != nil {
            throw SQLRejection(
                .pragmaNotAllowed,
                "PRAGMA \(name) = … changes a setting of the connection or the file; settings are never changed.")
        }
        throw SQLRejection(.pragmaNotAllowed, "PRAGMA \(name) is not allowed; only read-only introspection PRAGMAs are.")
    }

    /// The canonical name of the visible table or view with this name, of the owner of this
    /// shadow table, or of the table of this index.
    private func tableNamed(byTableOrIndex name: String) -> String? {
        let folded = SQLIdentifier.foldCase(name)
        let owner = schema.table(named: name)?.name
            ?? schema.shadowTableOwners[folded]
            ?? schema.tables.first { table in
                table.indexes.contains { SQLIdentifier.foldCase($0.name) == folded }
            }?.name
        guard let owner else { return nil }
        return visibleTableNames.map { $0.contains(owner) } ?? true ? owner : nil
    }

    // MARK: - Conflict replacement

    /// Tables whose rows the statement may delete to resolve a conflict (`REPLACE`,
    /// `INSERT OR REPLACE`, `UPDATE OR REPLACE`, `ON CONFLICT REPLACE` constraints), read from
    /// the compiled program: an `OP_Delete` on a table that is not the delete half of an update.
    private func conflictReplacementTables(_ sql: String) -> Set<String> {
        let connection = replica.connection
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(connection, "EXPLAIN " + sql, -1, 0, &statement, nil) == SQLITE_OK,
              let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        let isUpdateFlag: Int64 = 0x04  // OPFLAG_ISUPDATE
        var tables: Set<String> = []
        while sqlite3_step(statement) == SQLITE_ROW {
            guard let opcode = sqlite3_column_text(statement, 1),
                  String(cString: opcode) == "Delete",
                  sqlite3_column_int64(statement, 3) & isUpdateFlag == 0,
                  let p4 = sqlite3_column_text(statement, 5)
            else { continue }
            let name = String(cString: p4)
            if let table = schema.table(named: name) { tables.insert(table.name) }
        }
        return tables
    }
}
