import Foundation
import GRDB
import Testing
import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Reads in pages: next positions, skipped rows checked, schema changes refused")
struct ResultPagingTests {
    static let script = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT NOT NULL);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO item SELECT i, 'label ' || i FROM n;
        """

    @Test("pages cut by the row cap continue where they stopped, every row once")
    func everyRowOnce() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxRows: 70))
        var ids: [Int64] = []
        var position: ResultPosition?
        var pages = 0
        repeat {
            let page = try await executor.query("SELECT id FROM item ORDER BY id", after: position)
            #expect(page.offset == (position?.offset ?? 0))
            #expect(!page.earlierRowsChanged)
            ids += page.rows.compactMap { if case .integer(let id) = $0[0] { id } else { nil } }
            position = page.next
            pages += 1
        } while position != nil
        #expect(pages == 15)
        #expect(ids == Array(1...1000))
    }

    @Test("a result cut by bytes has a next position; a complete one has none")
    func nextOnlyWhenMoreRows() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxRows: 5000, maxResultBytes: 2048))
        let cut = try await executor.query("SELECT * FROM item")
        #expect(cut.truncationReason == .bytes)
        #expect(cut.next?.offset == cut.rowCount)
        let whole = try await executor.query("SELECT * FROM item WHERE id <= 3")
        #expect(whole.next == nil)
    }

    @Test("rows changed before the page are reported, not hidden")
    func earlierRowsChanged() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxRows: 100))
        let first = try await executor.query("SELECT id, label FROM item ORDER BY id")
        let writer = try DatabaseQueue(path: database.path)
        try await writer.write { db in try db.execute(sql: "UPDATE item SET label = 'changed' WHERE id = 5") }
        try writer.close()
        let second = try await executor.query("SELECT id, label FROM item ORDER BY id", after: first.next)
        #expect(second.earlierRowsChanged)
        #expect(second.offset == 100)
    }

    @Test("a position made under another schema version is refused")
    func schemaChanged() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxRows: 100))
        let first = try await executor.query("SELECT id FROM item ORDER BY id")
        let writer = try DatabaseQueue(path: database.path)
        try await writer.write { db in try db.execute(sql: "CREATE TABLE other(x)") }
        try writer.close()
        let error = await caughtError { () async throws(SwiftDBAIError) in
            try await executor.query("SELECT id FROM item ORDER BY id", after: first.next)
        }
        guard case .invalidRequest(let message)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(message.contains("schema changed"))
    }

    @Test("row counts: counted up to the limit, sqlite_stat1 where ANALYZE ran, a bound for WITHOUT ROWID")
    func rowCountSources() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE small(id INTEGER PRIMARY KEY);
            INSERT INTO small VALUES (1), (2);
            CREATE TABLE analyzed(id INTEGER PRIMARY KEY, v);
            CREATE INDEX analyzed_v ON analyzed(v);
            INSERT INTO analyzed(v) VALUES (1), (2), (3);
            CREATE TABLE keyed(k TEXT PRIMARY KEY) WITHOUT ROWID;
            """)
        let writer = try DatabaseQueue(path: database.path)
        try await writer.write { db in
            try db.execute(sql: "ANALYZE analyzed")
            try db.execute(sql: "UPDATE sqlite_stat1 SET stat = '5000 1' WHERE tbl = 'analyzed'")
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO keyed SELECT 'k' || i FROM n
                """, arguments: [RowCountEstimate.exactLimit + 10])
        }
        try writer.close()
        let counts = try await database.executor().rowCounts(of: ["small", "analyzed", "keyed", "missing"])
        #expect(counts["small"] == RowCountEstimate(count: 2, isExact: true, source: .counted))
        #expect(counts["analyzed"] == RowCountEstimate(count: 5000, isExact: false, source: .statistics))
        #expect(counts["keyed"] == RowCountEstimate(count: RowCountEstimate.exactLimit + 1, isExact: false, source: .lowerBound))
        #expect(counts["keyed"]?.phrase == "more than \(RowCountEstimate.exactLimit)")
        #expect(counts["missing"] == nil)
    }

    @Test("an error that names tables lists only those most like the name on a large schema")
    func shortUnknownTableMessage() {
        let names = (0..<500).map { "table_\($0)" } + ["customer_orders"]
        let message = SwiftDBAIError.unknownTable("customer_order", available: names).description
        #expect(message.contains("customer_orders"))
        #expect(message.contains("and \(names.count - SwiftDBAIError.listedNameLimit) others"))
        #expect(message.utf8.count < 1_000)
    }

    @Test("a row too wide for the budget: a read says to select fewer columns; a write's preview still shows it")
    func wideRows() async throws {
        let columns = (0..<300).map { "c\($0) TEXT" }.joined(separator: ", ")
        let values = (0..<300).map { _ in "'" + String(repeating: "x", count: 100) + "'" }.joined(separator: ", ")
        let database = try ScratchDatabase("CREATE TABLE w(\(columns)); INSERT INTO w VALUES (\(values));")
        let executor = try database.executor(.unrestricted, limits: ExecutionLimits(maxResultBytes: 8_192))
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT * FROM w") }
        guard case .invalidRequest(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("fewer columns"))
        let narrow = try await executor.query("SELECT c0, c1 FROM w")
        #expect(narrow.rowCount == 1)
        let preview = try await executor.preview([BoundStatement(sql: "DELETE FROM w")], expecting: .delete)
        #expect(preview.affectedRows?.rowCount == 1)
        #expect(try database.scalar("SELECT count(*) FROM w", as: Int.self) == 1)
    }

    @Test("long values in several columns are clipped to fit, quotes and escapes counted, never refused")
    func longValuesClipToFit() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE doc(a TEXT, b TEXT, c TEXT, d TEXT);
            INSERT INTO doc VALUES (printf('%.*c', 20000, 'x'), printf('%.*c', 20000, '"'), printf('%.*c', 20000, 'é'), printf('%.*c', 9000, char(1)));
            """)
        for budget in [16_000, 4_096] {
            let executor = try database.executor(limits: ExecutionLimits(maxResultBytes: budget))
            let result = try await executor.query("SELECT a, b, c, d, a || b AS e FROM doc")
            #expect(result.rowCount == 1, "\(budget)")
            #expect(result.clippedCells.count == 5)
            let encoded = try JSONEncoder().encode(result.rows.map { $0.map { value -> String? in
                if case .text(let text) = value { text } else { nil }
            } })
            #expect(encoded.count <= budget, "\(budget): \(encoded.count)")
        }
    }
}
