import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SchemaIntrospector")
struct SchemaIntrospectorTests {
    // MARK: - Objects

    @Test("tables, views and virtual tables are listed in sqlite_schema order, with their kind and DDL")
    func objectKinds() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE artist(id INTEGER PRIMARY KEY, name TEXT);
            CREATE VIEW artist_names AS SELECT name FROM artist;
            CREATE VIRTUAL TABLE docs USING fts5(title, body);
            """)
        #expect(schema.tableNames == ["artist", "artist_names", "docs"])
        #expect(schema.table(named: "artist")?.kind == .table)
        #expect(schema.table(named: "artist_names")?.kind == .view)
        #expect(schema.table(named: "docs")?.kind == .virtual)
        #expect(schema.table(named: "docs")?.virtualTableModule == "fts5")
        #expect(schema.table(named: "artist")?.virtualTableModule == nil)
        #expect(schema.table(named: "artist")?.sql == "CREATE TABLE artist(id INTEGER PRIMARY KEY, name TEXT)")
        #expect(schema.table(named: "artist_names")?.columns.map(\.name) == ["name"])
        #expect(schema.table(named: "ARTIST")?.name == "artist", "lookup is ASCII case-insensitive")
        #expect(schema.table(named: "nothing") == nil)
    }

    @Test("FTS5 works here; its shadow tables are hidden from tables and recorded with their owner")
    func fts5ShadowTables() async throws {
        let dbQueue = try TestDatabase.inMemory("""
            CREATE VIRTUAL TABLE Docs USING fts5(title, body);
            CREATE TABLE docs_archive(id INTEGER PRIMARY KEY);
            """)
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO Docs(title, body) VALUES ('hello', 'brave new world')")
            #expect(try String.fetchAll(db, sql: "SELECT title FROM Docs WHERE Docs MATCH 'brave'") == ["hello"])
        }
        let schema = try await SchemaIntrospector().introspect(dbQueue)

        #expect(schema.tableNames == ["Docs", "docs_archive"])
        let shadows = ["docs_config", "docs_content", "docs_data", "docs_docsize", "docs_idx"]
        #expect(schema.shadowTableOwners.keys.sorted() == shadows)
        #expect(Set(schema.shadowTableOwners.values) == ["Docs"])
        for shadow in shadows {
            #expect(schema.table(named: shadow) == nil)
        }
        let docs = try #require(schema.table(named: "docs"))
        #expect(docs.kind == .virtual)
        #expect(docs.columns.map(\.name) == ["title", "body", "Docs", "rank"])
        #expect(docs.columns.map(\.visibility) == [.normal, .normal, .hidden, .hidden])
        #expect(docs.rowCount == nil, "virtual tables are not counted")
    }

    @Test("the module of a virtual table is read from its DDL, whatever its columns are called")
    func virtualTableModule() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE VIRTUAL TABLE "focusing using" USING fts5(causing, "using", tokenize = 'unicode61');
            CREATE VIRTUAL TABLE boxes USING rtree(id, minX, maxX);
            CREATE VIRTUAL TABLE [using] /* USING nothing */ USING
                fts5(body, content = '', tokenize = "porter unicode61");
            """)
        #expect(schema.table(named: "focusing using")?.virtualTableModule == "fts5")
        #expect(schema.table(named: "boxes")?.virtualTableModule == "rtree")
        #expect(schema.table(named: "boxes")?.kind == .virtual)
        #expect(schema.table(named: "using")?.virtualTableModule == "fts5")
    }

    @Test("WITHOUT ROWID and STRICT tables are flagged")
    func tableFlags() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE plain(id INTEGER PRIMARY KEY);
            CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            CREATE TABLE typed(id INTEGER PRIMARY KEY, v ANY, amount REAL NOT NULL) STRICT;
            CREATE TABLE both_flags(k TEXT PRIMARY KEY, v INTEGER) STRICT, WITHOUT ROWID;
            """)
        let flags = schema.tables.map { [$0.name: [$0.isWithoutRowID, $0.isStrict]] }
        #expect(flags == [
            ["plain": [false, false]],
            ["keyed": [true, false]],
            ["typed": [false, true]],
            ["both_flags": [true, true]],
        ])
    }

    // MARK: - Columns

    @Test("columns report declared type, not-null, default and primary-key position")
    func columns() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE item(
                id INTEGER PRIMARY KEY,
                name NVARCHAR(160) NOT NULL DEFAULT 'Unknown',
                price NUMERIC(10,2) DEFAULT 0,
                created TEXT DEFAULT CURRENT_TIMESTAMP,
                note,
                code TEXT NOT NULL DEFAULT (lower('X'))
            );
            """)
        let item = try #require(schema.table(named: "item"))
        #expect(item.columns == [
            ColumnSchema(name: "id", declaredType: "INTEGER", primaryKeyPosition: 1),
            ColumnSchema(name: "name", declaredType: "NVARCHAR(160)", isNotNull: true, defaultValue: "'Unknown'"),
            ColumnSchema(name: "price", declaredType: "NUMERIC(10,2)", defaultValue: "0"),
            ColumnSchema(name: "created", declaredType: "TEXT", defaultValue: "CURRENT_TIMESTAMP"),
            ColumnSchema(name: "note", declaredType: ""),
            ColumnSchema(name: "code", declaredType: "TEXT", isNotNull: true, defaultValue: "lower('X')"),
        ])
        #expect(item.primaryKey == ["id"])
        #expect(item.column(named: "NAME")?.name == "name")
    }

    @Test("a composite primary key reports each column's position in key order, not column order")
    func compositePrimaryKey() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE pair(b TEXT, a INTEGER, note TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
            CREATE TABLE rowid_only(x, y);
            """)
        let pair = try #require(schema.table(named: "pair"))
        #expect(pair.columns.map(\.primaryKeyPosition) == [2, 1, nil])
        #expect(pair.primaryKey == ["a", "b"])
        #expect(pair.column(named: "a")?.isNotNull == true, "WITHOUT ROWID primary-key columns are NOT NULL")
        #expect(schema.table(named: "rowid_only")?.primaryKey == [])
    }

    @Test("VIRTUAL and STORED generated columns are reported as generated")
    func generatedColumns() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE shape(
                w REAL, h REAL,
                area REAL GENERATED ALWAYS AS (w * h) VIRTUAL,
                perimeter REAL AS (2 * (w + h)) STORED
            );
            """)
        let shape = try #require(schema.table(named: "shape"))
        #expect(shape.columns.map(\.name) == ["w", "h", "area", "perimeter"])
        #expect(shape.columns.map(\.visibility) == [.normal, .normal, .generatedVirtual, .generatedStored])
        #expect(shape.columns.map(\.isGenerated) == [false, false, true, true])
        #expect(shape.column(named: "area")?.declaredType == "REAL")
    }

    // MARK: - Foreign keys

    @Test("foreign keys: multi-column, actions, and REFERENCES without columns resolved to the parent's key")
    func foreignKeys() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE parent(x INTEGER, y TEXT, PRIMARY KEY (y, x));
            CREATE TABLE child(
                id INTEGER PRIMARY KEY,
                px INTEGER, py TEXT,
                owner_id INTEGER REFERENCES owner ON DELETE SET DEFAULT,
                qx INTEGER, qy TEXT,
                FOREIGN KEY (px, py) REFERENCES parent(x, y) ON DELETE CASCADE ON UPDATE SET NULL,
                FOREIGN KEY (qy, qx) REFERENCES parent
            );
            CREATE TABLE owner(oid INTEGER PRIMARY KEY);
            """)
        let child = try #require(schema.table(named: "child"))
        #expect(child.foreignKeys == [
            ForeignKeySchema(columns: ["owner_id"], referencedTable: "owner", referencedColumns: ["oid"],
                             onUpdate: "NO ACTION", onDelete: "SET DEFAULT"),
            ForeignKeySchema(columns: ["px", "py"], referencedTable: "parent", referencedColumns: ["x", "y"],
                             onUpdate: "SET NULL", onDelete: "CASCADE"),
            ForeignKeySchema(columns: ["qy", "qx"], referencedTable: "parent", referencedColumns: ["y", "x"]),
        ])
        #expect(schema.table(named: "parent")?.foreignKeys == [])
    }

    // MARK: - Indexes

    @Test("indexes: unique, partial, constraint origins, column terms, expressions and descending terms")
    func indexes() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE people(id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT, age INTEGER, deleted INTEGER);
            CREATE UNIQUE INDEX people_name_age ON people(name, age DESC);
            CREATE INDEX people_active ON people(email) WHERE deleted = 0;
            CREATE INDEX people_lower ON people(lower(name), id);
            CREATE TABLE tag(label TEXT PRIMARY KEY, weight INTEGER) WITHOUT ROWID;
            """)
        let people = try #require(schema.table(named: "people"))
        #expect(people.indexes.map(\.name) == [
            "sqlite_autoindex_people_1", "people_name_age", "people_active", "people_lower",
        ])
        let byName = Dictionary(uniqueKeysWithValues: people.indexes.map { ($0.name, $0) })

        #expect(byName["sqlite_autoindex_people_1"] == IndexSchema(
            name: "sqlite_autoindex_people_1", isUnique: true, origin: .uniqueConstraint,
            terms: [.init(column: "email")], sql: nil))
        #expect(byName["people_name_age"] == IndexSchema(
            name: "people_name_age", isUnique: true,
            terms: [.init(column: "name"), .init(column: "age", isDescending: true)],
            sql: "CREATE UNIQUE INDEX people_name_age ON people(name, age DESC)"))
        #expect(byName["people_active"] == IndexSchema(
            name: "people_active", isUnique: false, isPartial: true,
            terms: [.init(column: "email")],
            sql: "CREATE INDEX people_active ON people(email) WHERE deleted = 0"))
        #expect(byName["people_lower"]?.terms == [.init(column: nil, isExpression: true), .init(column: "id")])
        #expect(byName["people_lower"]?.columns == ["id"])

        let tag = try #require(schema.table(named: "tag"))
        #expect(tag.indexes == [IndexSchema(
            name: "sqlite_autoindex_tag_1", isUnique: true, origin: .primaryKey, terms: [.init(column: "label")])])
    }

    // MARK: - Row counts

    @Test("row counts are exact for small tables, estimates above the limit, nil for views")
    func rowCounts() async throws {
        let dbQueue = try TestDatabase.inMemory("""
            CREATE TABLE small(id INTEGER PRIMARY KEY, v);
            CREATE TABLE empty(id INTEGER PRIMARY KEY);
            CREATE TABLE big(id INTEGER PRIMARY KEY);
            CREATE VIEW small_view AS SELECT * FROM small;
            INSERT INTO small(v) VALUES ('a'), ('b'), ('c');
            """)
        let bigCount = RowCountEstimate.exactLimit + 5
        try await dbQueue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO big(id) SELECT i FROM n
                """, arguments: [bigCount])
        }
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        #expect(schema.table(named: "small")?.rowCount == RowCountEstimate(count: 3, isExact: true))
        #expect(schema.table(named: "empty")?.rowCount == RowCountEstimate(count: 0, isExact: true))
        let big = try #require(schema.table(named: "big")?.rowCount)
        #expect(!big.isExact)
        #expect(big.count == bigCount, "rowids are dense, so the rowid range is the count")
        #expect(schema.table(named: "small_view")?.rowCount == nil)

        let uncounted = try await SchemaIntrospector(includesRowCounts: false).introspect(dbQueue)
        #expect(uncounted.tables.allSatisfy { $0.rowCount == nil })
    }

    // MARK: - Names

    @Test("names with spaces, quotes, brackets and non-ASCII characters round-trip exactly")
    func unusualNames() async throws {
        let table = "we\"ird [name] é"
        let column = "co\"l [x] ü"
        let view = "vue \"é\""
        let index = "ix \"q\" [z]"
        let quotedTable = SQLIdentifier.quote(table)
        let quotedColumn = SQLIdentifier.quote(column)
        let dbQueue = try TestDatabase.inMemory("""
            CREATE TABLE \(quotedTable)(\(quotedColumn) TEXT PRIMARY KEY, "ref id" INTEGER REFERENCES \(quotedTable)) WITHOUT ROWID;
            CREATE INDEX \(SQLIdentifier.quote(index)) ON \(quotedTable)("ref id" DESC);
            CREATE VIEW \(SQLIdentifier.quote(view)) AS SELECT \(quotedColumn) FROM \(quotedTable);
            INSERT INTO \(quotedTable) VALUES ('a', NULL), ('b', NULL);
            """)
        let schema = try await SchemaIntrospector().introspect(dbQueue)

        #expect(schema.tableNames == [table, view])
        let weird = try #require(schema.table(named: table))
        #expect(weird.name == table)
        #expect(weird.columns.map(\.name) == [column, "ref id"])
        #expect(weird.primaryKey == [column])
        #expect(weird.foreignKeys == [ForeignKeySchema(columns: ["ref id"], referencedTable: table, referencedColumns: [column])])
        #expect(weird.indexes.map(\.name) == ["sqlite_autoindex_\(table)_1", index])
        #expect(weird.indexes.last?.terms == [.init(column: "ref id", isDescending: true)])
        #expect(weird.rowCount == RowCountEstimate(count: 2, isExact: true))
        #expect(schema.table(named: view)?.columns.map(\.name) == [column])
        #expect(schema.table(named: "WE\"IRD [NAME] é")?.name == table, "ASCII letters fold, é stays")
        #expect(schema.table(named: "we\"ird [name] É") == nil, "SQLite folds ASCII only")
    }

    @Test("a view over a dropped table does not prevent describing the other objects")
    func brokenView() async throws {
        let dbQueue = try TestDatabase.inMemory("""
            CREATE TABLE kept(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE dropped(id INTEGER PRIMARY KEY);
            CREATE VIEW broken AS SELECT * FROM dropped;
            DROP TABLE dropped;
            """)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        #expect(schema.tableNames == ["kept", "broken"])
        #expect(schema.table(named: "kept")?.columns.map(\.name) == ["id", "name"])
        #expect(schema.table(named: "broken")?.kind == .view)
        #expect(schema.table(named: "broken")?.columns == [])
    }

    // MARK: - Triggers and schema version

    @Test("triggers and the schema version are recorded")
    func triggersAndSchemaVersion() async throws {
        let dbQueue = try TestDatabase.inMemory("""
            CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);
            CREATE TABLE log(message TEXT);
            CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.body); END;
            """)
        let schema = try await SchemaIntrospector().introspect(dbQueue)
        #expect(schema.triggers == [TriggerSchema(
            name: "notes_log", table: "notes",
            sql: "CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.body); END")])
        let version = try await dbQueue.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
        #expect(schema.schemaVersion == version)
        #expect(schema.schemaVersion > 0)
    }

    // MARK: - Empty and invalid files

    @Test("an in-memory database without tables is an emptyDatabase error")
    func emptyInMemoryDatabase() async throws {
        let dbQueue = try TestDatabase.inMemory()
        await #expect(throws: SwiftDBAIError.emptyDatabase(path: ":memory:")) {
            try await SchemaIntrospector().introspect(dbQueue)
        }
    }

    @Test("a 0-byte file is an emptyDatabase error, from the opener and from the introspector")
    func zeroByteFile() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("empty.sqlite").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            #expect(throws: SwiftDBAIError.emptyDatabase(path: path)) {
                try DatabaseOpener.open(path: path, readOnly: true)
            }
            var configuration = Configuration()
            configuration.readonly = true
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            await #expect(throws: SwiftDBAIError.emptyDatabase(path: path)) {
                try await SchemaIntrospector().introspect(dbQueue)
            }
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 0)
        }
    }

    @Test("a valid SQLite file without tables is an emptyDatabase error")
    func validFileWithoutTables() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("no-tables.sqlite").path
            try TestDatabase.makeFile(at: path, ddl: "PRAGMA user_version = 7")
            let dbQueue = try DatabaseOpener.open(path: path, readOnly: true)
            await #expect(throws: SwiftDBAIError.emptyDatabase(path: path)) {
                try await SchemaIntrospector().introspect(dbQueue)
            }
        }
    }

    @Test("a file that is not SQLite is a notADatabase error, from the opener and from the introspector")
    func notADatabase() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("notes.txt").path
            let text = String(repeating: "This is a text file, not a database.\n", count: 200)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
            #expect(throws: SwiftDBAIError.notADatabase(path: path)) {
                try DatabaseOpener.open(path: path, readOnly: true)
            }
            // Whether GRDB refuses the file when it opens or SQLite when it is first read,
            // the error is the typed notADatabase.
            await #expect(throws: SwiftDBAIError.notADatabase(path: path)) {
                var configuration = Configuration()
                configuration.readonly = true
                let dbQueue: DatabaseQueue
                do {
                    dbQueue = try DatabaseQueue(path: path, configuration: configuration)
                } catch {
                    throw SwiftDBAIError(error, path: path)
                }
                _ = try await SchemaIntrospector().introspect(dbQueue)
            }
        }
    }

    @Test("a missing path is fileNotFound and no file is created", arguments: [true, false])
    func missingFile(readOnly: Bool) throws {
        let path = TestDatabase.unusedTemporaryPath("missing.sqlite")
        #expect(throws: SwiftDBAIError.fileNotFound(path: path)) {
            try DatabaseOpener.open(path: path, readOnly: readOnly)
        }
        #expect(throws: SwiftDBAIError.fileNotFound(path: path)) {
            try DatabaseOpener.checkFile(at: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // MARK: - JSON

    @Test("a schema encodes to JSON and decodes to an equal schema")
    func jsonRoundTrip() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE parent(x INTEGER, y TEXT, PRIMARY KEY (x, y)) WITHOUT ROWID;
            CREATE TABLE child(id INTEGER PRIMARY KEY, px INTEGER, py TEXT,
                area REAL AS (id * 2) STORED,
                FOREIGN KEY (px, py) REFERENCES parent ON DELETE CASCADE);
            CREATE INDEX child_expr ON child(lower(py) DESC) WHERE px > 0;
            CREATE TABLE typed(v ANY) STRICT;
            CREATE VIEW child_view AS SELECT * FROM child;
            CREATE VIRTUAL TABLE docs USING fts5(body);
            CREATE TRIGGER child_trigger AFTER DELETE ON parent BEGIN DELETE FROM typed; END;
            INSERT INTO typed VALUES (1), ('two');
            """)
        let data = try JSONEncoder().encode(schema)
        let decoded = try JSONDecoder().decode(DatabaseSchema.self, from: data)
        #expect(decoded == schema)
        #expect(decoded.table(named: "CHILD")?.name == "child", "the decoded schema can look tables up")
        #expect(decoded.shadowTableOwners == schema.shadowTableOwners)
        #expect(!decoded.shadowTableOwners.isEmpty)

        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(json.keys) == ["tables", "schemaVersion", "shadowTableOwners", "triggers"])
    }
}
