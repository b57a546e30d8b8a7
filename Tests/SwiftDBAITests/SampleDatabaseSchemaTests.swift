import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// Introspection of the sample databases, checked against what SQLite itself reports
/// (`sqlite_schema` and the `pragma_*` functions, which is what `sqlite3 FILE .schema` prints).
@Suite("Sample database schemas")
struct SampleDatabaseSchemaTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        var fileName: String
        var tableCount: Int
        var viewCount: Int
        var testDescription: String { fileName }
    }

    static let samples = [
        Sample(fileName: "chinook.sqlite", tableCount: 11, viewCount: 0),
        Sample(fileName: "northwind.sqlite", tableCount: 13, viewCount: 16),
    ]

    private func open(_ sample: Sample) throws -> DatabaseQueue {
        try DatabaseOpener.open(path: TestDatabase.samplePath(sample.fileName), readOnly: true)
    }

    @Test("tables and views are those of sqlite_schema, with the same DDL", arguments: samples)
    func objects(sample: Sample) async throws {
        let dbQueue = try open(sample)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        let expected = try dbQueue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT name, type, sql FROM sqlite_schema
                WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                ORDER BY rowid
                """)
        }
        #expect(schema.tableNames == expected.map { $0["name"] as String })
        #expect(schema.tables.filter { $0.kind == .table }.count == sample.tableCount)
        #expect(schema.tables.filter { $0.kind == .view }.count == sample.viewCount)
        #expect(schema.tables.filter { $0.kind == .virtual }.isEmpty)
        for row in expected {
            let name: String = row["name"]
            let table = try #require(schema.table(named: name))
            #expect(table.sql == row["sql"] as String, "\(name)")
            #expect(table.kind.rawValue == row["type"] as String, "\(name)")
        }
        #expect(schema.shadowTableOwners.isEmpty)
    }

    @Test("columns match pragma_table_xinfo", arguments: samples)
    func columns(sample: Sample) async throws {
        let dbQueue = try open(sample)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        try await dbQueue.read { db in
            for table in schema.tables {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)
                    """, arguments: [table.name])
                let expected = rows.map { row in
                    ColumnSchema(
                        name: row["name"], declaredType: row["type"], isNotNull: row["notnull"],
                        defaultValue: row["dflt_value"],
                        primaryKeyPosition: (row["pk"] as Int) > 0 ? row["pk"] : nil,
                        visibility: (row["hidden"] as Int) == 0 ? .normal : .hidden)
                }
                #expect(!expected.isEmpty, "\(table.name)")
                #expect(table.columns == expected, "\(table.name)")
            }
        }
    }

    @Test("foreign keys match pragma_foreign_key_list", arguments: samples)
    func foreignKeys(sample: Sample) async throws {
        let dbQueue = try open(sample)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        let foreignKeyCount = try await dbQueue.read { db in
            var foreignKeyCount = 0
            for table in schema.tables where table.kind == .table {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?)
                    ORDER BY id, seq
                    """, arguments: [table.name])
                var expected: [Int: ForeignKeySchema] = [:]
                for row in rows {
                    let id: Int = row["id"]
                    var key = expected[id] ?? ForeignKeySchema(
                        columns: [], referencedTable: row["table"], referencedColumns: [],
                        onUpdate: row["on_update"], onDelete: row["on_delete"])
                    key.columns.append(row["from"])
                    if let referencedColumn = row["to"] as String? {
                        key.referencedColumns.append(referencedColumn)
                    }
                    expected[id] = key
                }
                // `REFERENCES parent` without columns refers to the parent's primary key.
                for (id, key) in expected where key.referencedColumns.isEmpty {
                    expected[id]?.referencedColumns = schema.table(named: key.referencedTable)?.primaryKey ?? []
                }
                foreignKeyCount += expected.count
                #expect(Set(table.foreignKeys) == Set(expected.values), "\(table.name)")
                #expect(table.foreignKeys.count == expected.count, "\(table.name)")
            }
            return foreignKeyCount
        }
        #expect(foreignKeyCount > 0)
    }

    @Test("indexes match pragma_index_list and pragma_index_info", arguments: samples)
    func indexes(sample: Sample) async throws {
        let dbQueue = try open(sample)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        try await dbQueue.read { db in
            for table in schema.tables where table.kind == .table {
                let list = try Row.fetchAll(db, sql: """
                    SELECT name, "unique", origin, partial FROM pragma_index_list(?)
                    """, arguments: [table.name])
                #expect(Set(table.indexes.map(\.name)) == Set(list.map { $0["name"] as String }), "\(table.name)")
                for row in list {
                    let name: String = row["name"]
                    let index = try #require(table.indexes.first { $0.name == name })
                    #expect(index.isUnique == row["unique"], "\(name)")
                    #expect(index.isPartial == row["partial"], "\(name)")
                    let origin: String = row["origin"]
                    #expect(index.origin.rawValue == ["c": "create_index", "u": "unique_constraint", "pk": "primary_key"][origin], "\(name)")
                    let columns = try String?.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                    #expect(index.terms.map(\.column) == columns, "\(name)")
                    let sql = try String?.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", arguments: [name])
                    #expect(index.sql == sql, "\(name)")
                }
            }
        }
    }

    @Test("row counts are exact and equal to count(*) for these small tables", arguments: samples)
    func rowCounts(sample: Sample) async throws {
        let dbQueue = try open(sample)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        try await dbQueue.read { db in
            for table in schema.tables {
                guard table.kind == .table else {
                    #expect(table.rowCount == nil, "\(table.name)")
                    continue
                }
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLIdentifier.quote(table.name))")
                #expect(table.rowCount == RowCountEstimate(count: count ?? -1, isExact: true), "\(table.name)")
            }
        }
    }

    @Test("Chinook: primary and foreign keys of well-known tables")
    func chinookKeys() async throws {
        let schema = try await SchemaIntrospector().introspect(open(Self.samples[0]))
        #expect(schema.table(named: "Album")?.primaryKey == ["AlbumId"])
        #expect(schema.table(named: "PlaylistTrack")?.primaryKey == ["PlaylistId", "TrackId"])
        #expect(schema.table(named: "Album")?.foreignKeys == [
            ForeignKeySchema(columns: ["ArtistId"], referencedTable: "Artist", referencedColumns: ["ArtistId"]),
        ])
        let employee = try #require(schema.table(named: "Employee"))
        #expect(employee.foreignKeys.map(\.referencedTable) == ["Employee"], "self-reference through ReportsTo")
        #expect(schema.table(named: "Track")?.column(named: "Name")?.declaredType == "NVARCHAR(200)")
    }

    @Test("Northwind: `Order Details` round-trips with its composite key, defaults and foreign keys")
    func northwindOrderDetails() async throws {
        let dbQueue = try open(Self.samples[1])
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        let details = try #require(schema.table(named: "Order Details"))
        #expect(details.name == "Order Details")
        #expect(details.kind == .table)
        #expect(details.primaryKey == ["OrderID", "ProductID"])
        #expect(details.column(named: "Quantity") == ColumnSchema(
            name: "Quantity", declaredType: "INTEGER", isNotNull: true, defaultValue: "1"))
        #expect(Set(details.foreignKeys.map(\.referencedTable)) == ["Orders", "Products"])
        #expect(schema.table(named: "order details")?.name == "Order Details")
        #expect(schema.table(named: "Order Details Extended")?.kind == .view)
        let classifier = try SQLStatementClassifier(schema: schema)
        let statement = try classifier.classify(#"SELECT * FROM "Order Details Extended""#)
        #expect(statement.tablesRead.isSuperset(of: ["Order Details", "Order Details Extended"]))
    }
}
