import Foundation
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// A journal that keeps what it hears, and refuses when told to.
private final class RecordingJournal: WriteJournal, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private(set) var prepared: [JournaledWrite] = []
    let refuses: Bool
    /// Reads the database inside `writeWillCommit`, to prove the write is not committed yet.
    let probe: (@Sendable () -> Int?)?

    init(refuses: Bool = false, probe: (@Sendable () -> Int?)? = nil) {
        self.refuses = refuses
        self.probe = probe
    }

    var log: [String] { lock.withLock { events } }

    func writeWillCommit(_ write: JournaledWrite) throws {
        let seen = probe?()
        lock.withLock {
            events.append("will \(write.rowsAffected)" + (seen.map { " seen \($0)" } ?? ""))
            prepared.append(write)
        }
        if refuses { throw CocoaError(.fileWriteOutOfSpace) }
    }

    func writeDidCommit(_ write: JournaledWrite) {
        lock.withLock { events.append("did \(write.rowsAffected)") }
    }

    func writeDidRollBack(_ statements: [BoundStatement], prepared: JournaledWrite?, error: SwiftDBAIError) {
        lock.withLock { events.append("rollback \(error.code) prepared \(prepared != nil)") }
    }
}

@Suite("WriteJournal: writes recorded before they commit")
struct WriteJournalTests {
    static let script = """
        CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT UNIQUE);
        CREATE TABLE log(id INTEGER PRIMARY KEY, note_id INTEGER);
        CREATE TRIGGER noted AFTER INSERT ON note BEGIN INSERT INTO log(note_id) VALUES (new.id); END;
        INSERT INTO note(text) VALUES ('a'), ('b');
        """

    @Test("the journal hears a write before its commit (not visible to other connections yet), then its commit")
    func beforeThenAfter() async throws {
        let database = try ScratchDatabase(Self.script)
        let journal = RecordingJournal { try? database.scalar("SELECT count(*) FROM note", as: Int.self) }
        let executor = try database.executor(.standard).withJournal(journal)
        let result = try await executor.execute("INSERT INTO note(text) VALUES (?)", arguments: ["c"])
        #expect(journal.log == ["will 1 seen 2", "did 1"])
        let write = try #require(journal.prepared.first)
        #expect(write.rowIDs == ["log": [3], "note": [3]], "rows the trigger wrote are covered too")
        #expect(write.lastInsertRowID == result.lastInsertRowID)
        #expect(write.statements == [BoundStatement(sql: "INSERT INTO note(text) VALUES (?)", arguments: ["c"])])
        #expect(!write.needsConfirmation && !write.confirmedByDelegate)
        #expect(try await executor.rowsDigest(of: write.rowIDs) == write.rowsDigest, "the database holds what the record says")
    }

    @Test("a journal that cannot record the write refuses it: rolled back, journalFailed")
    func refusalRollsBack() async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let journal = RecordingJournal(refuses: true)
        let executor = try database.executor(.standard).withJournal(journal)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute("INSERT INTO note(text) VALUES ('c')") }
        guard case .journalFailed? = error else {
            Issue.record("expected journalFailed, got \(String(describing: error))")
            return
        }
        #expect(error?.code == .auditLogFailed)
        #expect(journal.log == ["will 1", "rollback audit_log_failed prepared false"])
        #expect(try database.scalar("SELECT count(*) FROM note", as: Int.self) == 2)
        #expect(try database.contents() == before)
    }

    @Test("a failing statement is a rollback the journal hears; a refusal by the policy never reaches it")
    func failuresAndRefusals() async throws {
        let database = try ScratchDatabase(Self.script)
        let journal = RecordingJournal()
        let executor = try database.executor(.standard).withJournal(journal)
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute("INSERT INTO note(text) VALUES ('a')") }
        #expect(journal.log == ["rollback sqlite_error prepared false"])
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.execute("DROP TABLE note") }
        #expect(journal.log.count == 1)
    }

    @Test("a delegate's confirmation and the policy's need for one are reported")
    func confirmationFacts() async throws {
        let database = try ScratchDatabase(Self.script)
        let journal = RecordingJournal()
        let executor = try database.executor(.unrestricted, delegate: Confirmer(answer: true)).withJournal(journal)
        _ = try await executor.execute("DELETE FROM note WHERE text = 'a'")
        let write = try #require(journal.prepared.last)
        #expect(write.needsConfirmation && write.confirmedByDelegate)
        #expect(write.rowIDs == ["note": [1]])
        #expect(try await executor.rowsDigest(of: write.rowIDs) == write.rowsDigest, "a deleted row counts as missing")
        _ = try await executor.withDelegate(nil).execute("DELETE FROM note WHERE text = 'b'", confirmed: true)
        let confirmed = try #require(journal.prepared.last)
        #expect(confirmed.needsConfirmation && !confirmed.confirmedByDelegate)
    }

    @Test("row digests are the same in every process: fixed values for fixed content")
    func stableDigest() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.standard)
        let digest = try await executor.rowsDigest(of: ["note": [1, 2]])
        #expect(digest == (try await executor.rowsDigest(of: ["note": [2, 1].sorted()])))
        #expect(digest.hasPrefix("fnv1a64:") && digest.count == 24)
        // FNV-1a of this exact encoding; a change here breaks the check of older logs.
        #expect(try await executor.rowsDigest(of: [:]) == "fnv1a64:cbf29ce484222325")
        #expect(digest == "fnv1a64:4601ca7caea20496", "the encoding of rows is fixed")
        #expect(digest != (try await executor.rowsDigest(of: ["note": [1]])))
        var real = StableDigest()
        real.combine(.real(1.5))
        var integer = StableDigest()
        integer.combine(.integer(1))
        #expect(real.text != integer.text)
    }

    @Test("a record lists at most maxRowIDs rowids and says when it is cut")
    func rowIDCap() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, n INTEGER);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1200) INSERT INTO t(id, n) SELECT x, 0 FROM c;
            """)
        let journal = RecordingJournal()
        let executor = try database.executor(.unrestricted).withJournal(journal)
        _ = try await executor.execute("UPDATE t SET n = n + 1", confirmed: true)
        let write = try #require(journal.prepared.first)
        #expect(write.rowsAffected == 1200)
        #expect(write.rowIDsTruncated)
        #expect(write.rowIDs.values.reduce(0) { $0 + $1.count } == JournaledWrite.maxRowIDs)
    }
}
