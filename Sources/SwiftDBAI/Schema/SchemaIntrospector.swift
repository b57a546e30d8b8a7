import Foundation
import GRDB
import GRDBSQLite

/// Reads the schema of a database: tables, views, virtual tables, columns, foreign keys,
/// indexes, triggers and approximate row counts.
///
/// Introspection reads `sqlite_schema` and the `pragma_*` table-valued functions, a handful of
/// statements for the whole database, and falls back to one object at a time when a single object
/// cannot be described (a view over a dropped table, a virtual table whose module is missing).
///
/// ```swift
/// let schema = try await SchemaIntrospector().introspect(dbQueue)
/// print(schema.table(named: "Album")?.primaryKey ?? []) // ["AlbumId"]
/// ```
public struct SchemaIntrospector: Sendable {
    /// Whether to count rows (exact up to ``RowCountEstimate/exactLimit`` rows per table).
    public var includesRowCounts: Bool
    /// Descriptions of tables and columns laid over what the database says (column comments in
    /// its `CREATE TABLE` statements are read in any case).
    public var descriptions: SchemaDescriptions

    /// Creates an introspector.
    public init(includesRowCounts: Bool = true, descriptions: SchemaDescriptions = SchemaDescriptions()) {
        self.includesRowCounts = includesRowCounts
        self.descriptions = descriptions
    }

    /// Reads the schema through a GRDB reader.
    ///
    /// - Throws: ``SwiftDBAIError/emptyDatabase(path:)`` when the database holds no table or view,
    ///   ``SwiftDBAIError/notADatabase(path:)`` for a file that is not SQLite,
    ///   ``SwiftDBAIError/sqlite(code:message:)`` for other SQLite errors.
    public func introspect(_ reader: some DatabaseReader) async throws(SwiftDBAIError) -> DatabaseSchema {
        do {
            return try await reader.read { db in try introspect(db) }
        } catch let error as SwiftDBAIError {
            throw error
        } catch {
            throw SwiftDBAIError(error, path: reader.path)
        }
    }

    /// Reads the schema on an open connection.
    ///
    /// - Throws: ``SwiftDBAIError`` as ``introspect(_:)-(DatabaseReader)``, or a GRDB
    ///   `DatabaseError` for an SQLite failure.
    public func introspect(_ db: Database) throws -> DatabaseSchema {
        let schemaVersion = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        let (objects, shadowNames, listedTables) = try Self.objects(db)
        var tables = listedTables

        try loadColumns(db, into: &tables)
        for position in tables.indices where tables[position].kind == .table {
            let comments = ColumnCommentParser.descriptions(inCreateTable: tables[position].sql)
            guard !comments.isEmpty else { continue }
            let folded = Dictionary(comments.map { (SQLIdentifier.foldCase($0.key), $0.value) }) { first, _ in first }
            for column in tables[position].columns.indices {
                tables[position].columns[column].description = folded[SQLIdentifier.foldCase(tables[position].columns[column].name)]
            }
        }
        descriptions.apply(to: &tables)
        try loadForeignKeys(db, into: &tables)
        try loadIndexes(db, objects: objects, into: &tables)
        if includesRowCounts {
            try loadRowCounts(db, into: &tables)
        }

        let virtualNames = tables.filter { $0.kind == .virtual }.map(\.name)
        var shadowOwners: [String: String] = [:]
        for shadow in shadowNames {
            let owner = virtualNames
                .filter { shadow.hasPrefix(SQLIdentifier.foldCase($0) + "_") }
                .max { $0.utf8.count < $1.utf8.count }
            if let owner { shadowOwners[shadow] = owner }
        }
        let triggers = objects.filter { $0.type == "trigger" }
            .map { TriggerSchema(name: $0.name, table: $0.table, sql: $0.sql) }
        return DatabaseSchema(
            tables: tables, schemaVersion: schemaVersion, shadowTableOwners: shadowOwners, triggers: triggers)
    }

    /// The tables and views of the database by name and kind only, without columns, keys or
    /// indexes: what a server needs at start-up to check the names it is given, read in one
    /// statement whatever the size of the schema. Complete it with ``introspect(_:)-(Database)``.
    ///
    /// - Throws: ``SwiftDBAIError/emptyDatabase(path:)`` when the database holds no table or view,
    ///   or a GRDB `DatabaseError`.
    package func tableNames(_ db: Database) throws -> DatabaseSchema {
        let schemaVersion = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        var tables = try Self.objects(db).tables
        descriptions.apply(to: &tables)
        return DatabaseSchema(tables: tables, schemaVersion: schemaVersion)
    }

    /// An empty schema, once the database is known to hold a table or view.
    ///
    /// - Throws: ``SwiftDBAIError/emptyDatabase(path:)`` when it holds none, or a GRDB `DatabaseError`.
    package func presence(_ db: Database) throws -> DatabaseSchema {
        let found = try Int.fetchOne(db, sql: """
            SELECT 1 FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' LIMIT 1
            """)
        guard found != nil else { throw SwiftDBAIError.emptyDatabase(path: Self.path(of: db)) }
        return DatabaseSchema(tables: [], schemaVersion: try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0)
    }

    /// The objects of `sqlite_schema`, the shadow tables' folded names, and the tables and views
    /// (no columns yet).
    private static func objects(_ db: Database) throws -> (objects: [SchemaObject], shadowNames: Set<String>, tables: [TableSchema]) {
        let objects = try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name, sql FROM sqlite_schema
            WHERE sql IS NOT NULL ORDER BY rowid
            """).map { SchemaObject(type: $0[0], name: $0[1], table: $0[2], sql: $0[3]) }
        let tableList = tableList(db)
        let shadowNames = Set(tableList.filter { $0.value.type == "shadow" }.keys)

        var tables: [TableSchema] = []
        for object in objects where object.type == "table" || object.type == "view" {
            let folded = SQLIdentifier.foldCase(object.name)
            guard !object.name.hasPrefix("sqlite_"), !shadowNames.contains(folded) else { continue }
            let listed = tableList[folded]
            let isVirtual = listed?.type == "virtual" || object.sql.hasPrefix("CREATE VIRTUAL")
            tables.append(TableSchema(
                name: object.name,
                kind: object.type == "view" ? .view : (isVirtual ? .virtual : .table),
                columns: [],
                isWithoutRowID: listed?.withoutRowID ?? false,
                isStrict: listed?.strict ?? false,
                virtualTableModule: isVirtual ? moduleName(in: object.sql) : nil,
                sql: object.sql))
        }
        guard !tables.isEmpty else {
            throw SwiftDBAIError.emptyDatabase(path: path(of: db))
        }

        return (objects, shadowNames, tables)
    }

    // MARK: - Objects

    private struct SchemaObject {
        var type: String
        var name: String
        var table: String
        var sql: String
    }

    private struct TableListEntry {
        var type: String
        var withoutRowID: Bool
        var strict: Bool
    }

    /// `PRAGMA table_list` (SQLite 3.37+): object types (shadow tables included), WITHOUT ROWID
    /// and STRICT flags. Older SQLite versions lack it: flags are then reported false.
    private static func tableList(_ db: Database) -> [String: TableListEntry] {
        guard let rows = try? Row.fetchAll(db, sql: """
            SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'
            """)
        else { return [:] }
        var entries: [String: TableListEntry] = [:]
        for row in rows {
            let name: String = row[0]
            entries[SQLIdentifier.foldCase(name)] = TableListEntry(type: row[1], withoutRowID: row[2], strict: row[3])
        }
        return entries
    }

    /// The module name of a `CREATE VIRTUAL TABLE … USING module(…)` statement: the word after the
    /// first `USING` keyword. Quoted names and comments are skipped, and the module arguments come
    /// after the keyword, so a table or column named like `using` or `causing` is not mistaken for it.
    private static func moduleName(in sql: String) -> String? {
        let closingQuotes: [Character: Character] = ["\"": "\"", "'": "'", "`": "`", "[": "]"]
        let isWordCharacter = { (character: Character) in
            character.isLetter || character.isNumber || character == "_" || character == "$"
        }
        var rest = Substring(sql)
        while let first = rest.first {
            if let closing = closingQuotes[first] {
                rest = rest.dropFirst().drop { $0 != closing }.dropFirst()
            } else if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                rest = rest.range(of: "*/").map { rest[$0.upperBound...] } ?? ""
            } else if isWordCharacter(first) {
                let word = rest.prefix(while: isWordCharacter)
                rest = rest.dropFirst(word.count)
                if word.uppercased() == "USING" {
                    let module = rest.drop { $0.isWhitespace }.prefix(while: isWordCharacter)
                    return module.isEmpty ? nil : module.lowercased()
                }
            } else {
                rest = rest.dropFirst()
            }
        }
        return nil
    }

    // MARK: - Columns

    private func loadColumns(_ db: Database, into tables: inout [TableSchema]) throws {
        let positions = Self.positions(of: tables)
        let sql = """
            SELECT x.cid, x.name, x.type, x."notnull", x.dflt_value, x.pk, x.hidden
            FROM pragma_table_xinfo(?) x ORDER BY x.cid
            """
        if let rows = try? Row.fetchAll(db, sql: """
            SELECT m.name, x.cid, x.name, x.type, x."notnull", x.dflt_value, x.pk, x.hidden
            FROM sqlite_schema m JOIN pragma_table_xinfo(m.name) x
            WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY m.rowid, x.cid
            """) {
            for row in rows {
                guard let position = positions[SQLIdentifier.foldCase(row[0])] else { continue }
                tables[position].columns.append(Self.column(row, offset: 2))
            }
            return
        }
        // One object cannot be described: describe the others one at a time.
        for position in tables.indices {
            let rows = (try? Row.fetchAll(db, sql: sql, arguments: [tables[position].name])) ?? []
            tables[position].columns = rows.map { Self.column($0, offset: 1) }
        }
    }

    private static func column(_ row: Row, offset: Int) -> ColumnSchema {
        let primaryKeyPosition: Int = row[offset + 4]
        let hidden: Int = row[offset + 5]
        let visibility: ColumnSchema.Visibility = switch hidden {
        case 1: .hidden
        case 2: .generatedVirtual
        case 3: .generatedStored
        default: .normal
        }
        return ColumnSchema(
            name: row[offset],
            declaredType: row[offset + 1] ?? "",
            isNotNull: row[offset + 2],
            defaultValue: row[offset + 3],
            primaryKeyPosition: primaryKeyPosition > 0 ? primaryKeyPosition : nil,
            visibility: visibility)
    }

    // MARK: - Foreign keys

    private func loadForeignKeys(_ db: Database, into tables: inout [TableSchema]) throws {
        let positions = Self.positions(of: tables)
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.name, f.id, f."table", f."from", f."to", f.on_update, f.on_delete
            FROM sqlite_schema m JOIN pragma_foreign_key_list(m.name) f
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY m.rowid, f.id DESC, f.seq
            """)
        var current: (position: Int, id: Int)?
        for row in rows {
            guard let position = positions[SQLIdentifier.foldCase(row[0])] else { continue }
            let id: Int = row[1]
            let referencedColumn: String? = row[4]
            if current?.position != position || current?.id != id {
                tables[position].foreignKeys.append(ForeignKeySchema(
                    columns: [], referencedTable: row[2], referencedColumns: [],
                    onUpdate: row[5], onDelete: row[6]))
                current = (position, id)
            }
            let last = tables[position].foreignKeys.count - 1
            tables[position].foreignKeys[last].columns.append(row[3])
            if let referencedColumn {
                tables[position].foreignKeys[last].referencedColumns.append(referencedColumn)
            }
        }
        // `REFERENCES parent` without columns refers to the parent's primary key.
        for position in tables.indices {
            for key in tables[position].foreignKeys.indices
            where tables[position].foreignKeys[key].referencedColumns.isEmpty {
                let parent = tables[position].foreignKeys[key].referencedTable
                if let parentPosition = positions[SQLIdentifier.foldCase(parent)] {
                    tables[position].foreignKeys[key].referencedColumns = tables[parentPosition].primaryKey
                }
            }
        }
    }

    // MARK: - Indexes

    private func loadIndexes(_ db: Database, objects: [SchemaObject], into tables: inout [TableSchema]) throws {
        let positions = Self.positions(of: tables)
        var indexSQL: [String: String] = [:]
        for object in objects where object.type == "index" {
            indexSQL[SQLIdentifier.foldCase(object.name)] = object.sql
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.name, il.name, il."unique", il.origin, il.partial, ix.cid, ix.name, ix."desc"
            FROM sqlite_schema m
            JOIN pragma_index_list(m.name) il
            JOIN pragma_index_xinfo(il.name) ix
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND ix."key" = 1
            ORDER BY m.rowid, il.seq DESC, ix.seqno
            """)
        var current: (position: Int, name: String)?
        for row in rows {
            guard let position = positions[SQLIdentifier.foldCase(row[0])] else { continue }
            let name: String = row[1]
            if current?.position != position || current?.name != name {
                let origin: String = row[3]
                tables[position].indexes.append(IndexSchema(
                    name: name, isUnique: row[2], isPartial: row[4],
                    origin: origin == "pk" ? .primaryKey : (origin == "u" ? .uniqueConstraint : .createIndex),
                    terms: [], sql: indexSQL[SQLIdentifier.foldCase(name)]))
                current = (position, name)
            }
            let columnID: Int = row[5]
            let term = IndexSchema.Term(
                column: columnID == -2 ? nil : (row[6] as String?) ?? "rowid",
                isExpression: columnID == -2, isDescending: row[7])
            tables[position].indexes[tables[position].indexes.count - 1].terms.append(term)
        }
    }

    // MARK: - Row counts

    private func loadRowCounts(_ db: Database, into tables: inout [TableSchema]) throws {
        let counts = try Self.rowCounts(db, of: tables)
        for position in tables.indices {
            tables[position].rowCount = counts[SQLIdentifier.foldCase(tables[position].name)]
        }
    }

    /// The row counts of `tables` (views have none), by folded name, without scanning a large
    /// table: `sqlite_stat1`'s count where `ANALYZE` recorded one; otherwise a count of at most
    /// ``RowCountEstimate/exactLimit`` + 1 rows, exact below the limit, and beyond it the span of
    /// the rowids (two index seeks) or, for a `WITHOUT ROWID` table, the limit as a lower bound.
    ///
    /// - Throws: a GRDB `DatabaseError`.
    package static func rowCounts(_ db: Database, of tables: [TableSchema]) throws -> [String: RowCountEstimate] {
        let statistics = statisticsRowCounts(db)
        let limit = RowCountEstimate.exactLimit
        var counts: [String: RowCountEstimate] = [:]
        for table in tables where table.kind == .table {
            let folded = SQLIdentifier.foldCase(table.name)
            if let recorded = statistics[folded] {
                counts[folded] = RowCountEstimate(count: recorded, isExact: false, source: .statistics)
                continue
            }
            let quoted = SQLIdentifier.quote(table.name)
            let counted = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM main.\(quoted) LIMIT \(limit + 1))") ?? 0
            if counted <= limit {
                counts[folded] = RowCountEstimate(count: counted, isExact: true, source: .counted)
            } else if !table.isWithoutRowID,
                      let span = try Int.fetchOne(db, sql: "SELECT max(rowid) - min(rowid) + 1 FROM main.\(quoted)") {
                counts[folded] = RowCountEstimate(count: max(span, counted), isExact: false, source: .rowidRange)
            } else {
                counts[folded] = RowCountEstimate(count: counted, isExact: false, source: .lowerBound)
            }
        }
        return counts
    }

    /// Row counts recorded by `ANALYZE` in `sqlite_stat1`, when the table exists.
    private static func statisticsRowCounts(_ db: Database) -> [String: Int] {
        guard let rows = try? Row.fetchAll(db, sql: "SELECT tbl, stat FROM main.sqlite_stat1") else { return [:] }
        var counts: [String: Int] = [:]
        for row in rows {
            let table: String = row[0]
            let stat: String? = row[1]
            if let first = stat?.split(separator: " ").first, let count = Int(first) {
                counts[SQLIdentifier.foldCase(table)] = max(counts[SQLIdentifier.foldCase(table)] ?? 0, count)
            }
        }
        return counts
    }

    // MARK: - Helpers

    private static func positions(of tables: [TableSchema]) -> [String: Int] {
        var positions: [String: Int] = [:]
        for (position, table) in tables.enumerated() {
            positions[SQLIdentifier.foldCase(table.name)] = position
        }
        return positions
    }

    static func path(of db: Database) -> String {
        guard let connection = db.sqliteConnection, let name = sqlite3_db_filename(connection, "main") else {
            return ":memory:"
        }
        let path = String(cString: name)
        return path.isEmpty ? ":memory:" : path
    }
}
