import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Only regular files are opened, as plain paths, never created.
@Suite("DatabaseOpener paths")
struct DatabaseOpenerPathTests {
    @Test("a FIFO is refused at once, before anything reads it")
    func fifo() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("pipe.sqlite").path
            #expect(mkfifo(path, 0o600) == 0)
            let error = await caughtError { () async throws(SwiftDBAIError) in try SQLExecutor(path: path) }
            guard case .cannotOpen(_, let reason)? = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("FIFO"))
        }
    }

    @Test("a symbolic link to a database opens the database; one to a FIFO is refused")
    func symbolicLinks() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("real.sqlite").path
            try TestDatabase.makeFile(at: database, ddl: "CREATE TABLE t(a); INSERT INTO t VALUES (42);")
            let link = directory.appendingPathComponent("link.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
            let rows = try await SQLExecutor(path: link).query("SELECT a FROM t")
            #expect(rows.rows == [[.integer(42)]])

            let fifo = directory.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let fifoLink = directory.appendingPathComponent("pipe-link.sqlite").path
            try FileManager.default.createSymbolicLink(atPath: fifoLink, withDestinationPath: fifo)
            let error = await caughtError { () async throws(SwiftDBAIError) in try SQLExecutor(path: fifoLink) }
            guard case .cannotOpen? = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("a file whose name looks like an SQLite URI opens that very file, and creates nothing")
    func uriLookingName() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("file:t.sqlite?mode=rwc").path
            try TestDatabase.makeFile(at: path, ddl: "CREATE TABLE marker(a); INSERT INTO marker VALUES (7);")
            let executor = try SQLExecutor(path: path, policy: SafetyPolicy(allowlist: .standard))
            #expect(try await executor.query("SELECT a FROM marker").rows == [[.integer(7)]])
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names.filter { !$0.hasSuffix("-journal") } == ["file:t.sqlite?mode=rwc"])
        }
    }

    @Test("a missing file is an error and is not created", arguments: [true, false])
    func missing(readOnly: Bool) async throws {
        let path = TestDatabase.unusedTemporaryPath("missing.sqlite")
        let allowlist: OperationAllowlist = readOnly ? .readOnly : .unrestricted
        let error = await caughtError { () async throws(SwiftDBAIError) in try SQLExecutor(path: path, policy: SafetyPolicy(allowlist: allowlist)) }
        #expect(error == .fileNotFound(path: path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(
        "a read-only open that meets a hot journal says what to do; a writer recovers it (whole schema, or its version only)",
        arguments: [OpenedDatabase.SchemaReading.whole, .presence])
    func hotJournal(reading: OpenedDatabase.SchemaReading) async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("live.sqlite").path
            try TestDatabase.makeFile(at: path, ddl: """
                CREATE TABLE big(id INTEGER PRIMARY KEY, body TEXT);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
                INSERT INTO big SELECT i, hex(randomblob(500)) FROM n;
                """)
            // A copy taken in the middle of a write (pages already spilled to the file) is what a
            // writer killed at that moment leaves behind: the file and its hot journal.
            let copy = directory.appendingPathComponent("crashed.sqlite").path
            let queue = try DatabaseQueue(path: path)
            try await queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = 10")
                try db.inTransaction {
                    try db.execute(sql: "UPDATE big SET body = lower(body)")
                    try FileManager.default.copyItem(atPath: path, toPath: copy)
                    try FileManager.default.copyItem(atPath: path + "-journal", toPath: copy + "-journal")
                    return .rollback
                }
            }
            try queue.close()
            let original = try await SQLExecutor(path: path).query("SELECT sum(length(body)), max(body) FROM big").rows

            let error = await caughtError { () async throws(SwiftDBAIError) in
                try OpenedDatabase(path: copy, readOnly: true, reading: reading)
            }
            #expect(error == .hotJournal(path: copy))
            #expect(error?.description.contains("hot journal") == true)

            // A connection that may write rolls the journal back; then reading works, unchanged.
            _ = try OpenedDatabase(path: copy, readOnly: false, reading: reading)
            #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
            let recovered = try await SQLExecutor(path: copy).query("SELECT sum(length(body)), max(body) FROM big").rows
            #expect(recovered == original)
        }
    }
}
