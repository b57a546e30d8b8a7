import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("checkReadable: the file opened afresh, not the executor's connections")
struct ReadinessProbeTests {
    @Test("a file locked by another connection is there (readable); a deleted or replaced one is not, whatever is open")
    func probe() async throws {
        let database = try ScratchDatabase("CREATE TABLE t(a); INSERT INTO t VALUES (1);")
        let executor = try database.executor()
        _ = try await executor.query("SELECT a FROM t")
        try executor.checkReadable()

        // Another process writing holds the lock: no wait beyond the busy timeout, and readable.
        let queue = try DatabaseQueue(path: database.path)
        let locked = try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            defer { try? db.execute(sql: "ROLLBACK") }
            return Result { () throws(SwiftDBAIError) in try executor.checkReadable(busyTimeout: .milliseconds(10)) }
        }
        try queue.close()
        #expect(throws: Never.self) { try locked.get() }

        try FileManager.default.removeItem(atPath: database.path)
        _ = try await executor.query("SELECT a FROM t")  // the open connections still read the unlinked file
        #expect(throws: SwiftDBAIError.self) { try executor.checkReadable() }
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: database.path))
        #expect(throws: SwiftDBAIError.self) { try executor.checkReadable() }
    }
}
