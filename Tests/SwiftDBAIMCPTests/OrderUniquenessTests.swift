import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport
@testable import SwiftDBAIMCP

@Suite("Whether an ORDER BY makes the order unique")
struct OrderUniquenessTests {
    static let schema = DatabaseSchema(tables: [
        TableSchema(name: "t", kind: .table, columns: [
            ColumnSchema(name: "id", declaredType: "INTEGER", primaryKeyPosition: 1),
            ColumnSchema(name: "code", declaredType: "TEXT", isNotNull: true),
            ColumnSchema(name: "maybe", declaredType: "TEXT"),
            ColumnSchema(name: "grp", declaredType: "INTEGER"),
        ], indexes: [
            IndexSchema(name: "t_code", isUnique: true, isPartial: false, origin: .createIndex, terms: [.init(column: "code")]),
            IndexSchema(name: "t_maybe", isUnique: true, isPartial: false, origin: .createIndex, terms: [.init(column: "maybe")]),
        ]),
        TableSchema(name: "u", kind: .table, columns: [ColumnSchema(name: "k", declaredType: "TEXT", primaryKeyPosition: 1)]),
    ])

    static func statement(_ sql: String, reads: Set<String> = ["t"]) -> ClassifiedStatement {
        ClassifiedStatement(sql: sql, operation: .select, tablesRead: reads, isReadOnly: true, columnCount: 1)
    }

    @Test("unique", arguments: [
        "SELECT * FROM t ORDER BY id",
        "SELECT id, code FROM t WHERE grp = 3 ORDER BY t.id DESC LIMIT 10",
        "SELECT code FROM main.t ORDER BY code ASC",
        "SELECT * FROM t AS x ORDER BY grp, x.rowid",
        "select * from t order by grp desc nulls last, id;",
    ])
    func unique(sql: String) {
        #expect(OrderUniqueness(schema: Self.schema).isUnique(Self.statement(sql)))
    }

    @Test("possibly not unique", arguments: [
        "SELECT * FROM t",
        "SELECT * FROM t ORDER BY grp",
        "SELECT * FROM t ORDER BY maybe",
        "SELECT grp AS id FROM t ORDER BY id",
        "SELECT grp id FROM t ORDER BY id",
        "SELECT DISTINCT id FROM t ORDER BY id",
        "SELECT grp, count(*) FROM t GROUP BY grp ORDER BY grp",
        "SELECT * FROM t ORDER BY id + 0",
        "SELECT * FROM t ORDER BY 1",
        "SELECT * FROM t, t AS b ORDER BY t.id",
        "WITH x AS (SELECT * FROM t) SELECT * FROM x ORDER BY id",
        "SELECT * FROM t UNION ALL SELECT * FROM t ORDER BY id",
        "SELECT code FROM t ORDER BY code COLLATE NOCASE",
    ])
    func notUnique(sql: String) {
        #expect(!OrderUniqueness(schema: Self.schema).isUnique(Self.statement(sql)))
    }

    @Test("a collation named in the table, or a descending integer key, is no proof of uniqueness")
    func collations() {
        let table = TableSchema(
            name: "n", kind: .table,
            columns: [ColumnSchema(name: "name", declaredType: "TEXT", isNotNull: true), ColumnSchema(name: "k", declaredType: "INTEGER", primaryKeyPosition: 1)],
            indexes: [IndexSchema(name: "n_name", isUnique: true, terms: [.init(column: "name")])],
            sql: "CREATE TABLE n(k INTEGER PRIMARY KEY DESC, name TEXT NOT NULL COLLATE NOCASE UNIQUE)")
        let check = OrderUniqueness(schema: DatabaseSchema(tables: [table]))
        #expect(!check.isUnique(Self.statement("SELECT * FROM n ORDER BY name", reads: ["n"])))
        #expect(!check.isUnique(Self.statement("SELECT * FROM n ORDER BY k", reads: ["n"])))
        #expect(check.isUnique(Self.statement("SELECT * FROM n ORDER BY rowid", reads: ["n"])))
    }

    @Test("a rowid table's non-integer primary key may hold NULLs; a join reads two tables")
    func keys() {
        #expect(!OrderUniqueness(schema: Self.schema).isUnique(Self.statement("SELECT * FROM u ORDER BY k", reads: ["u"])))
        #expect(OrderUniqueness(schema: Self.schema).isUnique(Self.statement("SELECT * FROM u ORDER BY rowid", reads: ["u"])))
        #expect(!OrderUniqueness(schema: Self.schema).isUnique(Self.statement("SELECT * FROM t JOIN u ORDER BY t.id", reads: ["t", "u"])))
    }
}
