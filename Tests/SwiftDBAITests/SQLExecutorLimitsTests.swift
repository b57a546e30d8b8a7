import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLExecutor limits")
struct SQLExecutorLimitsTests {
    @Test("a 1,000,000-row cross join returns the capped rows, truncated")
    func rowCap() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE n(i INTEGER PRIMARY KEY);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) INSERT INTO n SELECT i FROM c;
            """)
        let executor = try database.executor(limits: ExecutionLimits(maxRows: 100))
        let result = try await executor.query("SELECT a.i, b.i FROM n a CROSS JOIN n b")
        #expect(result.rowCount == 100)
        #expect(result.truncated)
        #expect(result.rows.first == [.integer(1), .integer(1)])
        let smaller = try await executor.query("SELECT a.i FROM n a CROSS JOIN n b", maxRows: 7)
        #expect(smaller.rowCount == 7 && smaller.truncated)
        let exact = try await executor.query("SELECT i FROM n LIMIT 100")
        #expect(exact.rowCount == 100 && !exact.truncated)
    }

    @Test("a MaxRowLimitValidator lowers the cap")
    func validatorCap() async throws {
        let database = try ScratchDatabase("CREATE TABLE n(i); INSERT INTO n VALUES (1), (2), (3);")
        let executor = try database.executor(validators: [MaxRowLimitValidator(maxRows: 2)])
        let result = try await executor.query("SELECT i FROM n", maxRows: 1000)
        #expect(result.rowCount == 2 && result.truncated)
    }

    @Test("a runaway WITH RECURSIVE stops at the timeout with a typed error")
    func timeout() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a);")
        let executor = try database.executor(limits: ExecutionLimits(timeout: .milliseconds(200)))
        await #expect(throws: SwiftDBAIError.timeout(milliseconds: 200)) {
            _ = try await executor.query("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT max(i) FROM c")
        }
        // The deadline belonged to that statement only: the next one runs normally.
        #expect(try await executor.query("SELECT 1").rows == [[.integer(1)]])
    }

    @Test("a write interrupted by the timeout is rolled back")
    func writeTimeout() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a);")
        let before = try database.contents()
        let executor = try database.executor(.standard, limits: ExecutionLimits(timeout: .milliseconds(200)))
        await #expect(throws: SwiftDBAIError.timeout(milliseconds: 200)) {
            _ = try await executor.execute(
                "INSERT INTO t WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i FROM c")
        }
        #expect(try database.contents() == before)
    }

    @Test("cancelling the task interrupts the running statement")
    func cancellation() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a);")
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let executor = try database.executor(limits: ExecutionLimits(timeout: .seconds(60)), delegate: StartSignal(signal))
        let task = Task {
            try await executor.query("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT max(i) FROM c")
        }
        for await _ in started { break }
        task.cancel()
        // Not interrupted, the statement would end at the 60 s timeout, as .timeout.
        await #expect(throws: SwiftDBAIError.cancelled) { _ = try await task.value }
        #expect(try await executor.query("SELECT 2").rows == [[.integer(2)]])
    }

    @Test("another connection's write lock gives a clear busy error after the busy timeout")
    func busy() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a);")
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: database.path, configuration: configuration)
        let executor = try database.executor(.standard, limits: ExecutionLimits(busyTimeout: .milliseconds(100)))
        try await other.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)")
        }
        let error = await caughtError { () async throws(SwiftDBAIError) in
            try await executor.execute("INSERT INTO t VALUES (2)")
        }
        guard case .databaseBusy = error else {
            Issue.record("expected a busy error, got \(String(describing: error))")
            return
        }
        try await other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        #expect(try await executor.execute("INSERT INTO t VALUES (3)").rowsAffected == 1)
    }
}

/// Signals when a statement is about to run, so a test can cancel it without sleeping.
struct StartSignal: SQLExecutionDelegate {
    let continuation: AsyncStream<Void>.Continuation
    init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }
    func willExecuteSQL(_ statement: ClassifiedStatement) async { continuation.yield() }
}
