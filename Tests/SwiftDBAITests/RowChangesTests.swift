import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// A journal that keeps the writes it is told about.
private final class KeepingJournal: WriteJournal, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [JournaledWrite] = []

    var writes: [JournaledWrite] { lock.withLock { kept } }
    var last: JournaledWrite? { writes.last }

    func writeWillCommit(_ write: JournaledWrite) throws {
        lock.withLock { kept.append(write) }
    }

    func writeDidCommit(_ write: JournaledWrite) {}

    func writeDidRollBack(_ statements: [BoundStatement], prepared: JournaledWrite?, error: SwiftDBAIError) {}
}

@Suite("RowChanges: a write's rows before and after, and the undo that puts them back")
struct RowChangesTests {
    static let script = """
        CREATE TABLE artist(id INTEGER PRIMARY KEY, name TEXT UNIQUE, albums INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE album(id INTEGER PRIMARY KEY, artist_id INTEGER REFERENCES artist(id) ON DELETE CASCADE, title TEXT, cover BLOB, rating REAL);
        CREATE TABLE history(id INTEGER PRIMARY KEY, what TEXT);
        CREATE TABLE setting(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TRIGGER album_added AFTER INSERT ON album BEGIN
            UPDATE artist SET albums = albums + 1 WHERE id = new.artist_id;
            INSERT INTO history(what) VALUES ('added ' || new.title);
        END;
        CREATE TRIGGER album_removed AFTER DELETE ON album BEGIN
            UPDATE artist SET albums = albums - 1 WHERE id = old.artist_id;
            INSERT INTO history(what) VALUES ('removed ' || old.title);
        END;
        INSERT INTO artist(name) VALUES ('Ada'), ('Bo');
        INSERT INTO album(artist_id, title, cover, rating) VALUES (1, 'First', X'00ff10', 4.5), (1, 'Second', NULL, 1e999), (2, 'Third', 'text', -0.0);
        INSERT INTO setting VALUES ('theme', 'dark'), ('size', 3);
        """

    /// Every table's rows, read with another connection: what "exactly as it was" compares.
    static func dump(_ database: ScratchDatabase, tables: [String] = ["artist", "album", "history", "setting"]) throws -> [String] {
        let queue = try DatabaseQueue(path: database.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var lines: [String] = []
            for table in tables {
                let order = ["setting", "child"].contains(table) ? "1" : "rowid"
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(order)") {
                    lines.append("\(table) \(row.databaseValues.map { "\($0.storage)" })")
                }
            }
            return lines
        }
    }

    fileprivate static func journaled(_ database: ScratchDatabase) throws -> (SQLExecutor, KeepingJournal) {
        let journal = KeepingJournal()
        return (try database.executor(.unrestricted).withJournal(journal), journal)
    }

    @Test("an update, its triggers' rows and a cascade: each row once, before its first change and after its last")
    func recordsEveryRow() async throws {
        let database = try ScratchDatabase(Self.script)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute("DELETE FROM artist WHERE id = 1", confirmed: true)
        let changes = try #require(journal.last?.rowChanges)
        #expect(changes.isComplete)
        let byTable = Dictionary(grouping: changes.rows, by: \.table)
        #expect(byTable["artist"]?.map(\.rowID) == [1])
        #expect(byTable["artist"]?.first?.before?["name"] == .text("Ada"))
        #expect(byTable["artist"]?.first?.after == nil, "deleted in the end, though the trigger updated it first")
        #expect(byTable["album"]?.map(\.rowID) == [1, 2])
        #expect(byTable["album"]?.first?.before?["cover"] == .blob(Data([0, 255, 16])))
        #expect(byTable["album"]?.last?.before?["rating"] == .real(.infinity))
        #expect(byTable["history"]?.count == 2 && byTable["history"]?.allSatisfy { $0.before == nil } == true)
        #expect(changes.rows.first?.table == "artist", "in the order each row was first changed")
    }

    @Test("REPLACE, a new rowid, a WITHOUT ROWID table, and a row inserted then deleted by the same write")
    func recordsTheUnusualWrites() async throws {
        let database = try ScratchDatabase(Self.script)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute("INSERT OR REPLACE INTO artist(id, name, albums) VALUES (5, 'Bo', 9)", confirmed: true)
        var rows = try #require(journal.last?.rowChanges.rows)
        let artists = rows.filter { $0.table == "artist" }
        #expect(artists.map(\.kind) == [.delete, .insert], "the row REPLACE removed is recorded")
        #expect(artists.first?.before?["id"] == .integer(2) && artists.last?.after?["albums"] == .integer(9))
        #expect(rows.contains { $0.table == "album" && $0.rowID == 3 && $0.kind == .delete }, "and its album, gone by the cascade")

        _ = try await executor.execute("UPDATE artist SET id = 7 WHERE id = 5", confirmed: true)
        rows = try #require(journal.last?.rowChanges.rows)
        #expect(rows.map(\.rowID) == [5, 7] && rows.map(\.kind) == [.delete, .insert])

        _ = try await executor.execute("UPDATE setting SET value = 'light' WHERE key = 'theme'", confirmed: true)
        rows = try #require(journal.last?.rowChanges.rows)
        #expect(rows == [RowChange(
            table: "setting", rowID: nil, before: ["key": .text("theme"), "value": .text("dark")],
            after: ["key": .text("theme"), "value": .text("light")])])

        _ = try await executor.execute(
            [BoundStatement(sql: "INSERT INTO history(what) VALUES ('brief')"), BoundStatement(sql: "DELETE FROM history WHERE what = 'brief'")],
            confirmed: true)
        #expect(journal.last?.rowChanges.rows == [], "a row that came and went is no change")
    }

    @Test("what the record cannot hold makes it incomplete, never wrong", arguments: [
        ("CREATE TABLE g(a INTEGER PRIMARY KEY, b TEXT, c AS (b || '!') VIRTUAL)", "INSERT INTO g(b) VALUES ('x')", "virtual generated"),
        ("CREATE VIRTUAL TABLE doc USING fts5(body)", "INSERT INTO doc(body) VALUES ('x')", "virtual table doc"),
        (
            "CREATE TABLE many(a INTEGER PRIMARY KEY)",
            "WITH RECURSIVE n(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM n WHERE v < 1001) INSERT INTO many(a) SELECT v FROM n",
            "more than 1000 rows"
        ),
        ("CREATE TABLE big(a INTEGER PRIMARY KEY, b)", "INSERT INTO big(b) SELECT zeroblob(500000) FROM (VALUES (1), (2), (3))", "MiB"),
    ])
    func incompleteRecords(ddl: String, write: String, reason: String) async throws {
        let database = try ScratchDatabase(ddl)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute(write, confirmed: true)
        let changes = try #require(journal.last?.rowChanges)
        #expect(changes.incompleteReason?.contains(reason) == true, "\(String(describing: changes.incompleteReason))")
        #expect(changes.rows.count <= RowChanges.maxRows)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.revert(changes) }
        #expect(error?.code == .revertRefused)
    }

    @Test("an undo puts back every row exactly, triggers' and cascades' included, without firing the triggers again")
    func revertRestoresExactly() async throws {
        let database = try ScratchDatabase(Self.script)
        let original = try Self.dump(database)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute(
            [
                BoundStatement(sql: "DELETE FROM artist WHERE id = 1"),
                BoundStatement(sql: "INSERT INTO album(artist_id, title) VALUES (2, 'Fourth')"),
                BoundStatement(sql: "UPDATE setting SET value = NULL"),
                BoundStatement(sql: "UPDATE album SET rating = 2.25, cover = X'' WHERE id = 3"),
            ], confirmed: true)
        let write = try #require(journal.last)
        #expect(try Self.dump(database) != original)
        let statements = try await executor.revertStatements(for: write.rowChanges)
        #expect(statements.first?.sql.hasPrefix("UPDATE OR ABORT main.\"album\" SET") == true, "the newest change first")
        try await executor.checkRevertible(write.rowChanges)
        let undone = try await executor.revert(write.rowChanges)
        #expect(undone.rowsAffected == statements.count)
        #expect(try Self.dump(database) == original, "every row as it was, the history rows the triggers wrote removed")
        // The undo is a write: recorded, with its own rows, and undone in turn.
        let undo = try #require(journal.last)
        #expect(undo.rowChanges.rows.count == write.rowChanges.rows.count)
        _ = try await executor.revert(undo.rowChanges)
        #expect(try database.scalar("SELECT title FROM album WHERE id = 4", as: String.self) == "Fourth")
        #expect(try database.scalar("SELECT count(*) FROM artist WHERE id = 1", as: Int.self) == 0)
    }

    @Test("an undo is refused, changing nothing, when a row changed since, or when it would reach another row")
    func revertRefusals() async throws {
        let database = try ScratchDatabase(Self.script)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute("UPDATE album SET title = 'Renamed' WHERE id = 1", confirmed: true)
        let write = try #require(journal.last)
        _ = try await executor.execute("UPDATE album SET title = 'Again' WHERE id = 1", confirmed: true)
        let before = try Self.dump(database)
        var error = await caughtError { () async throws(SwiftDBAIError) in try await executor.revert(write.rowChanges) }
        guard case .revertRefused(let reason)? = error else {
            Issue.record("expected revertRefused, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("row 1 of album") && reason.contains("title") && !reason.contains("Again"), "\(reason)")
        #expect(try Self.dump(database) == before)

        // A deleted parent put back by hand: the undo of its deletion would collide.
        _ = try await executor.execute("DELETE FROM album WHERE id = 3", confirmed: true)
        let deletion = try #require(journal.last)
        _ = try await executor.execute("INSERT INTO album(id, artist_id, title) VALUES (3, 2, 'Back')", confirmed: true)
        error = await caughtError { () async throws(SwiftDBAIError) in try await executor.revert(deletion.rowChanges) }
        #expect(error?.code == .revertRefused)
        #expect(error?.description.contains("changed since the write") == true)
    }

    @Test("an undo that would reach other rows is refused: a cascade into a WITHOUT ROWID table, a table's ON CONFLICT REPLACE")
    func revertTouchesOnlyItsRows() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE child(parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE ON UPDATE CASCADE, k TEXT,
                               PRIMARY KEY(parent_id, k)) WITHOUT ROWID;
            CREATE TABLE person(id INTEGER PRIMARY KEY, email TEXT UNIQUE ON CONFLICT REPLACE);
            INSERT INTO parent VALUES (1, 'p');
            INSERT INTO person VALUES (5, 'x@example');
            """)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute("INSERT INTO parent VALUES (2, 'q')", confirmed: true)
        let insert = try #require(journal.last)
        _ = try await executor.execute("DELETE FROM person WHERE id = 5", confirmed: true)
        let delete = try #require(journal.last)
        // Rows added since by another connection, in the way of the undo.
        let queue = try DatabaseQueue(path: database.path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO child VALUES (2, 'k')")
            try db.execute(sql: "INSERT INTO person VALUES (9, 'x@example')")
        }
        try queue.close()
        let before = try Self.dump(database, tables: ["parent", "child", "person"])
        for changes in [insert.rowChanges, delete.rowChanges] {
            let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.revert(changes) }
            #expect(error?.code == .revertRefused || error?.code.rawValue == "sqlite_error", "\(String(describing: error))")
        }
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.revert(insert.rowChanges) }
        #expect(error?.description.contains("a row of child") == true, "\(String(describing: error))")
        #expect(try Self.dump(database, tables: ["parent", "child", "person"]) == before, "nothing changed")
    }

    @Test("after an undo, succeeded or refused, the connection's triggers fire again")
    func triggersComeBack() async throws {
        let database = try ScratchDatabase(Self.script)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute("INSERT INTO album(artist_id, title) VALUES (2, 'New')", confirmed: true)
        let write = try #require(journal.last)
        _ = try await executor.revert(write.rowChanges)
        _ = await caughtError { () async throws(SwiftDBAIError) in try await executor.revert(write.rowChanges) }
        _ = try await executor.execute("INSERT INTO album(artist_id, title) VALUES (2, 'Later')", confirmed: true)
        #expect(try database.scalar("SELECT albums FROM artist WHERE id = 2", as: Int.self) == 2, "Third and Later: the trigger counted it")
        #expect(try database.scalar("SELECT count(*) FROM history WHERE what = 'added Later'", as: Int.self) == 1)
    }

    @Test("protected columns are named, generated ones over them too; text that is not UTF-8 makes the record incomplete")
    func protectedAndInvalidText() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT, email TEXT, lower_email TEXT GENERATED ALWAYS AS (lower(email)) STORED);
            INSERT INTO people(name, email) VALUES ('Ann', 'Ann@Example'), (CAST(X'ff41' AS TEXT), 'b@example');
            """)
        let journal = KeepingJournal()
        let executor = try SQLExecutor(
            path: database.path,
            policy: SafetyPolicy(
                allowlist: .standard, columnProtection: ColumnProtection(masked: ["people": ["email"]], revealsMasked: true))
        ).withJournal(journal)
        _ = try await executor.execute("UPDATE people SET email = 'ann@new' WHERE id = 1", confirmed: true)
        let row = try #require(journal.last?.rowChanges.rows.first)
        #expect(row.protectedColumns == ["email", "lower_email"])
        _ = try await executor.execute("UPDATE people SET email = 'b@new' WHERE id = 2", confirmed: true)
        #expect(journal.last?.rowChanges.incompleteReason?.contains("not valid UTF-8") == true)
    }

    @Test("the undo goes through the policy: refused where the executor may not write")
    func revertFollowsThePolicy() async throws {
        let database = try ScratchDatabase(Self.script)
        let (executor, journal) = try Self.journaled(database)
        _ = try await executor.execute("INSERT INTO history(what) VALUES ('x')", confirmed: true)
        let write = try #require(journal.last)
        let before = try database.contents()
        // Undoing an insert deletes: not allowed under .standard.
        let standard = try database.executor(.standard)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await standard.revert(write.rowChanges) }
        #expect(error?.code.rawValue == "operation_not_allowed")
        let readOnly = try database.executor(.readOnly)
        #expect(await caughtError { () async throws(SwiftDBAIError) in try await readOnly.revert(write.rowChanges) } != nil)
        #expect(try database.contents() == before)
    }

    @Test("statements as SQL with their values written in")
    func literals() {
        let statement = BoundStatement(
            sql: #"UPDATE main."a?b" SET "x" = ?, 'y?' = ?, z = ?, w = ?, v = ? WHERE rowid = ?"#,
            arguments: [.text("it's"), .blob(Data([0, 171])), .real(.infinity), .null, .real(5), .integer(-3)])
        #expect(statement.sqlWithLiterals == #"UPDATE main."a?b" SET "x" = 'it''s', 'y?' = X'00ab', z = 9e999, w = NULL, v = 5.0 WHERE rowid = -3"#)
        #expect(SQLValue.text("a\u{0}b'\u{202E}\u{9B}\n").sqlLiteral == "('a' || char(0) || 'b''' || char(8238) || char(155) || '\n')")
    }
}
