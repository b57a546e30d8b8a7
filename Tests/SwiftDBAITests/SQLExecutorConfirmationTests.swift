import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// A confirmation covers the rows its preview showed: when they change before the write runs,
/// nothing changes.
@Suite("SQLExecutor confirmation bound to the previewed rows")
struct SQLExecutorConfirmationTests {
    static let script = """
        CREATE TABLE genre(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE track(id INTEGER PRIMARY KEY, genre_id INTEGER REFERENCES genre(id) ON DELETE CASCADE, name TEXT);
        INSERT INTO genre VALUES (1, 'Rock'), (2, 'Jazz'), (3, 'Blues'), (4, 'Jazz');
        INSERT INTO track VALUES (1, 2, 'So What'), (2, 4, 'Take Five'), (3, 1, 'Back in Black');
        """

    static let deleteJazz = [BoundStatement(sql: "DELETE FROM genre WHERE name = ?", arguments: ["Jazz"])]

    /// Runs a statement through a connection of its own, as another process would.
    static func otherConnection(_ database: ScratchDatabase, _ sql: String) throws {
        let queue = try DatabaseQueue(path: database.path)
        defer { try? queue.close() }
        try queue.write { db in try db.execute(sql: sql) }
    }

    @Test("the previewed rows, unchanged, are deleted once confirmed")
    func unchanged() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted)
        let preview = try await executor.preview(Self.deleteJazz)
        #expect(preview.rowsAffected == 2)
        #expect(preview.affectedRows?.rowCount == 2)
        let result = try await executor.execute(Self.deleteJazz, confirmed: true, matching: preview.signature)
        #expect(result.rowsAffected == 2)
        #expect(try database.scalar("SELECT count(*) FROM genre", as: Int.self) == 2)
    }

    @Test("rows that start matching after the preview make the confirmed write change nothing", arguments: [
        "INSERT INTO genre VALUES (5, 'Jazz'), (6, 'Jazz')",  // more rows match
        "UPDATE genre SET name = 'Soul' WHERE id = 4",  // fewer rows match
        "UPDATE track SET name = 'Blue in Green' WHERE id = 1",  // a row the cascade deletes changed
        "INSERT INTO track VALUES (9, 2, 'Freddie Freeloader')",  // the cascade would delete one more
    ])
    func changedRows(change: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted)
        let preview = try await executor.preview(Self.deleteJazz)
        try Self.otherConnection(database, change)
        let before = try database.contents()
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute(Self.deleteJazz, confirmed: true, matching: preview.signature) }
        guard case .changedSincePreview(let previewed, _)? = error else {
            Issue.record("expected changedSincePreview, got \(String(describing: error))")
            return
        }
        #expect(previewed == 2)
        #expect(try database.contents() == before)
    }

    @Test("a preview of no rows does not confirm a write that now deletes some")
    func emptyPreview() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted)
        let statements = [BoundStatement(sql: "DELETE FROM genre WHERE name = 'Funk'")]
        let preview = try await executor.preview(statements)
        #expect(preview.rowsAffected == 0)
        try Self.otherConnection(database, "INSERT INTO genre VALUES (7, 'Funk'), (8, 'Funk')")
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute(statements, confirmed: true, matching: preview.signature) }
        #expect(error == .changedSincePreview(previewedRows: 0, rowsNow: 2))
        #expect(try database.scalar("SELECT count(*) FROM genre WHERE name = 'Funk'", as: Int.self) == 2)
    }

    @Test("a REPLACE shows the row it would overwrite, and is not confirmed once that row changed")
    func replace() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted)
        let statements = [BoundStatement(sql: "INSERT OR REPLACE INTO genre(id, name) VALUES (3, 'Delta blues')")]
        let preview = try await executor.preview(statements)
        #expect(preview.affectedRows?.rows == [[.integer(3), .text("Blues")]])
        try Self.otherConnection(database, "UPDATE genre SET name = 'Chicago blues' WHERE id = 3")
        let error = await caughtError { () async throws(SwiftDBAIError) in
            try await executor.execute(statements, confirmed: true, matching: preview.signature)
        }
        #expect(error == .changedSincePreview(previewedRows: 1, rowsNow: 1))
        #expect(try database.scalar("SELECT name FROM genre WHERE id = 3", as: String.self) == "Chicago blues")
        let again = try await executor.preview(statements)
        #expect(try await executor.execute(statements, confirmed: true, matching: again.signature).rowsAffected == 1)
    }

    @Test("an update confirmed on rows whose content changed meanwhile changes nothing")
    func updatedContent() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted, mutationPolicy: MutationPolicy(operationsRequiringConfirmation: [.update]))
        let statements = [BoundStatement(sql: "UPDATE track SET name = upper(name) WHERE genre_id = 2")]
        let preview = try await executor.preview(statements)
        try Self.otherConnection(database, "UPDATE track SET name = 'Milestones' WHERE id = 1")
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute(statements, confirmed: true, matching: preview.signature) }
        #expect(error == .changedSincePreview(previewedRows: 1, rowsNow: 1))
        #expect(try database.scalar("SELECT name FROM track WHERE id = 1", as: String.self) == "Milestones")
    }

    /// Confirms every request and records it; before answering the first one, changes the rows
    /// through another connection.
    actor ChangingDelegate: SQLExecutionDelegate {
        let database: ScratchDatabase
        private(set) var requests: [DestructiveOperationRequest] = []

        init(database: ScratchDatabase) {
            self.database = database
        }

        func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool {
            requests.append(request)
            if requests.count == 1 {
                try? SQLExecutorConfirmationTests.otherConnection(database, "INSERT INTO genre VALUES (5, 'Jazz')")
            }
            return true
        }
    }

    @Test("a delegate is shown a preview, and asked again with a new one when the rows changed")
    func delegateAskedAgain() async throws {
        let database = try ScratchDatabase(Self.script)
        let delegate = ChangingDelegate(database: database)
        let executor = try database.executor(.unrestricted, delegate: delegate)
        let result = try await executor.execute(Self.deleteJazz)
        let requests = await delegate.requests
        #expect(requests.count == 2)
        #expect(requests.first?.preview?.rowsAffected == 2)
        #expect(requests.first?.changedSincePreviousConfirmation == false)
        #expect(requests.last?.preview?.rowsAffected == 3)
        #expect(requests.last?.changedSincePreviousConfirmation == true)
        #expect(requests.last?.changeSincePreviousConfirmation == .changedSincePreview(previewedRows: 2, rowsNow: 3))
        #expect(result.rowsAffected == 3)
    }

    @Test("last_insert_rowid is reported even when a failed write used the same rowid before")
    func lastInsertRowID() async throws {
        let database = try ScratchDatabase("CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT NOT NULL);")
        let executor = try database.executor(.standard)
        _ = await caughtError { () async throws(SwiftDBAIError) in 
            try await executor.execute([
                BoundStatement(sql: "INSERT INTO note(body) VALUES ('a')"),
                BoundStatement(sql: "INSERT INTO note(body) VALUES (NULL)"),
            ])
        }
        let result = try await executor.execute("INSERT INTO note(body) VALUES ('b')")
        #expect(result.lastInsertRowID == 1)
    }

    @Test("an insert into a table without rowid reports no rowid")
    func withoutRowID() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE plain(id INTEGER PRIMARY KEY, body TEXT);
            CREATE TABLE keyed(k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
            INSERT INTO plain(body) VALUES ('x');
            """)
        let executor = try database.executor(.standard)
        let plain = try await executor.execute("INSERT INTO plain(body) VALUES ('y')")
        #expect(plain.lastInsertRowID == 2)
        let result = try await executor.execute("INSERT INTO keyed VALUES ('a', 'b')")
        #expect(result.lastInsertRowID == nil)
    }
}
