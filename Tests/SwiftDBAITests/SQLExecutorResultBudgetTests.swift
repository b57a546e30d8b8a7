import Foundation
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// Results are bounded in bytes while they are fetched, long values are clipped visibly, and no
/// single value can grow past the value limit.
@Suite("SQLExecutor result budget and value limits")
struct SQLExecutorResultBudgetTests {
    static let script = """
        CREATE TABLE doc(id INTEGER PRIMARY KEY, body TEXT, data BLOB);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
        INSERT INTO doc(id, body, data) SELECT i, replace(hex(zeroblob(50000)), '00', 'ab'), zeroblob(30000) FROM n;
        CREATE TABLE small(id INTEGER PRIMARY KEY, name TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO small(id, name) SELECT i, 'name ' || i FROM n;
        """

    /// The size of the rows as the JSON clients receive.
    static func jsonSize(_ result: QueryResult) throws -> Int {
        try JSONEncoder().encode(result.rows).count
    }

    @Test("rows of long values stop at the byte budget; each value is clipped with a visible marker")
    func longValues() async throws {
        let database = try ScratchDatabase(Self.script)
        let limits = ExecutionLimits(maxResultBytes: 16 * 1024)
        let executor = try database.executor(limits: limits)
        let result = try await executor.query("SELECT id, body FROM doc")
        #expect(result.truncated)
        #expect(result.truncationReason == .bytes)
        #expect(result.rowCount > 0 && result.rowCount < 40)
        #expect(try Self.jsonSize(result) <= limits.maxResultBytes)
        #expect(result.clippedCells.count == result.rowCount)
        for (index, row) in result.rows.enumerated() {
            guard case .text(let body) = row[1] else {
                Issue.record("expected text")
                continue
            }
            #expect(body.hasSuffix("…[clipped: 100000 bytes in all]"))
            #expect(body.hasPrefix("abab"))
            #expect(result.clippedCells.contains(ClippedCell(row: index, column: 1, byteCount: 100_000)))
        }
    }

    @Test("a clipped blob keeps its first bytes and reports its size in all")
    func clippedBlob() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxResultBytes: 8 * 1024))
        let result = try await executor.query("SELECT data FROM doc WHERE id = 1")
        guard case .blob(let data) = result.rows.first?.first else {
            Issue.record("expected a blob")
            return
        }
        #expect(data.count < 30_000 && !data.isEmpty)
        #expect(result.clippedCells == [ClippedCell(row: 0, column: 0, byteCount: 30_000)])
        #expect(result.truncationReason == .bytes)
    }

    @Test("many small rows stop at the byte budget before the row cap")
    func manySmallRows() async throws {
        let database = try ScratchDatabase(Self.script)
        let limits = ExecutionLimits(maxRows: 5000, maxResultBytes: 4096)
        let executor = try database.executor(limits: limits)
        let result = try await executor.query("SELECT * FROM small")
        #expect(result.truncationReason == .bytes)
        #expect(result.rowCount > 10 && result.rowCount < 5000)
        #expect(try Self.jsonSize(result) <= limits.maxResultBytes)
        #expect(result.clippedCells.isEmpty)
        // The rows returned are the first ones, complete.
        #expect(result.rows[0] == [.integer(1), .text("name 1")])
    }

    @Test("the row cap still cuts first when it comes first, and says so")
    func rowCap() async throws {
        let database = try ScratchDatabase(Self.script)
        let result = try await database.executor().query("SELECT * FROM small", maxRows: 7)
        #expect(result.rowCount == 7)
        #expect(result.truncationReason == .rows)
    }

    @Test("a complete result is not truncated")
    func complete() async throws {
        let database = try ScratchDatabase(Self.script)
        let result = try await database.executor().query("SELECT * FROM small WHERE id <= 3")
        #expect(!result.truncated)
        #expect(result.truncationReason == nil)
        #expect(result.clippedCells.isEmpty)
    }

    @Test("text is clipped on a character boundary")
    func characterBoundary() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(s TEXT); INSERT INTO t VALUES (replace(hex(zeroblob(3000)), '00', 'é'));")
        let executor = try database.executor(limits: ExecutionLimits(maxResultBytes: 1024, maxCellBytes: 101))
        let result = try await executor.query("SELECT s FROM t")
        guard case .text(let text) = result.rows.first?.first else {
            Issue.record("expected text")
            return
        }
        #expect(!text.contains("\u{FFFD}"))
        #expect(text.hasPrefix("éé"))
        #expect(text.hasSuffix("…[clipped: 6000 bytes in all]"))
    }

    @Test("a function that would build a huge value fails at once with a typed error", arguments: [
        "SELECT length(randomblob(999999999))",
        "SELECT hex(zeroblob(300000000))",
        "SELECT length(zeroblob(2000000))",
    ])
    func valueLimit(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxValueBytes: 1_000_000))
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query(sql) }
        #expect(error == .valueTooLarge(limit: 1_000_000))
    }

    @Test("a stored value larger than the limit is refused with the typed error; other columns stay readable")
    func storedValueLimit() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(limits: ExecutionLimits(maxValueBytes: 50_000))
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT body FROM doc WHERE id = 1") }
        #expect(error == .valueTooLarge(limit: 50_000))
        let other = try await executor.query("SELECT id, length(data) FROM doc WHERE id = 1")
        #expect(other.rows == [[.integer(1), .integer(30_000)]])
    }

    @Test("the Markdown rendering stays within its byte budget and says how many rows it shows")
    func renderingBudget() async throws {
        let database = try ScratchDatabase(Self.script)
        let result = try await database.executor(limits: ExecutionLimits(maxRows: 5000, maxResultBytes: 64 * 1024))
            .query("SELECT * FROM small")
        let text = MarkdownTableRenderer(maxBytes: 2048).render(result)
        #expect(text.utf8.count < 2048 + 400)
        #expect(text.contains("shown here"))
        #expect(text.contains("every row is in the structured result"))
    }

    @Test("many narrow columns: the header and its rule must fit with the summary, or the text says too wide", arguments: [120, 60])
    func renderingNarrowColumns(columns: Int) async throws {
        let database = try ScratchDatabase(Self.script)
        let list = (0..<columns).map { "\($0 % 10) AS \"\($0 % 10)\"" }.joined(separator: ", ")
        let result = try await database.executor().query("SELECT \(list)")
        let text = MarkdownTableRenderer(maxBytes: 1_024).render(result)
        #expect(MarkdownTableRenderer.cost(text) <= 1_024, "\(MarkdownTableRenderer.cost(text)) bytes")
        #expect(text.contains("too wide") == (columns == 120))
    }

    @Test("the Markdown rendering of a clipped value keeps the marker with the value's size")
    func renderingClipped() async throws {
        let database = try ScratchDatabase(Self.script)
        let result = try await database.executor(limits: ExecutionLimits(maxResultBytes: 8 * 1024))
            .query("SELECT body, data FROM doc WHERE id = 1")
        let text = MarkdownTableRenderer().render(result)
        #expect(text.contains("…[clipped: 100000 bytes in all]"))
        #expect(text.contains("<blob 30000 bytes, clipped>"))
        #expect(text.contains("long values were clipped"))
    }
}
