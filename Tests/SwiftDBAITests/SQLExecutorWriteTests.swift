import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLExecutor writes and confirmation")
struct SQLExecutorWriteTests {
    static let script = """
        CREATE TABLE "Order Details"(id INTEGER PRIMARY KEY, "we""ird [name] é" TEXT, qty INTEGER NOT NULL DEFAULT 1,
            total INTEGER GENERATED ALWAYS AS (qty * 10) VIRTUAL);
        CREATE TABLE parent(id INTEGER PRIMARY KEY);
        CREATE TABLE child(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE);
        INSERT INTO "Order Details"(id, "we""ird [name] é", qty) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3);
        INSERT INTO parent VALUES (1), (2);
        INSERT INTO child(parent_id) VALUES (1), (1), (2);
        """

    @Test("a DELETE without a delegate needs confirmation and deletes nothing")
    func deleteNeedsConfirmation() async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try database.executor(.unrestricted)
        await #expect(throws: SwiftDBAIError.confirmationRequired(.delete, tables: ["Order Details"])) {
            _ = try await executor.execute("DELETE FROM \"Order Details\" WHERE id = 1")
        }
        #expect(try database.contents() == before)
        let confirmed = try await executor.execute("DELETE FROM \"Order Details\" WHERE id = 1", confirmed: true)
        #expect(confirmed.rowsAffected == 1)
    }

    @Test("a declining delegate leaves every row; an accepting one lets the delete run")
    func delegateDecides() async throws {
        let database = try ScratchDatabase(Self.script)
        let declining = try database.executor(.unrestricted, delegate: Confirmer(answer: false))
        await #expect(throws: SwiftDBAIError.confirmationDeclined(.delete, tables: ["child", "parent"])) {
            _ = try await declining.execute("DELETE FROM parent WHERE id = 1")
        }
        #expect(try database.scalar("SELECT count(*) FROM child", as: Int.self) == 3)
        let accepting = try database.executor(.unrestricted, delegate: Confirmer(answer: true))
        let result = try await accepting.execute("DELETE FROM parent WHERE id = 1")
        #expect(result.rowsAffected == 1)
        #expect(try database.scalar("SELECT count(*) FROM child", as: Int.self) == 1)
    }

    @Test("a cascade into a table the policy protects is refused before anything runs")
    func cascadeRefused() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(
            .unrestricted, mutationPolicy: MutationPolicy(tableRules: ["parent": [.delete]]))
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.execute("DELETE FROM parent WHERE id = 1", confirmed: true)
        }
        #expect(try database.scalar("SELECT count(*) FROM parent", as: Int.self) == 2)
    }

    @Test("the sql form must be the operation asked for")
    func expectedOperation() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted)
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.execute("INSERT INTO parent VALUES (9)", expecting: .update)
        }
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.execute("SELECT * FROM parent", expecting: .insert)
        }
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.query("INSERT INTO parent VALUES (9)") }
        #expect(try database.scalar("SELECT count(*) FROM parent", as: Int.self) == 2)
    }

    @Test("parameter mismatches are clear errors", arguments: [
        ("SELECT * FROM parent WHERE id = ?", SQLArguments.none),
        ("SELECT * FROM parent WHERE id = ?", SQLArguments.positional([1, 2])),
        ("SELECT * FROM parent WHERE id = :id", SQLArguments.named(["other": 1])),
    ])
    func parameterMismatch(sql: String, arguments: SQLArguments) async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        await #expect(throws: SwiftDBAIError.self) { _ = try await executor.query(sql, arguments: arguments) }
    }

    @Test("named and positional parameters bind")
    func parametersBind() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        #expect(try await executor.query("SELECT id FROM parent WHERE id = :id", arguments: ["id": 2]).rows == [[2]])
        #expect(try await executor.query("SELECT id FROM parent WHERE id = $id", arguments: ["$id": 1]).rows == [[1]])
        #expect(try await executor.query("SELECT id FROM parent WHERE id = ?", arguments: [2]).rows == [[2]])
    }

    @Test("structured insert, update and delete quote odd names and bind values")
    func structured() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor(.unrestricted)
        let odd = "we\"ird [name] é"
        let inserted = try await executor.insert(
            into: "order details", rows: [[odd: "x'); DROP TABLE parent; --", "qty": 4], [:]])
        #expect(inserted.rowsAffected == 2)
        #expect(inserted.lastInsertRowID == 5)
        #expect(try database.scalar("SELECT \"we\"\"ird [name] é\" FROM \"Order Details\" WHERE id = 4", as: String.self)
            == "x'); DROP TABLE parent; --")
        let updated = try await executor.update(
            "Order Details", set: ["qty": 9], where: RowFilter([.init("qty", .greaterThanOrEqual(2)), .init(odd, .isNull(false))]))
        #expect(updated.rowsAffected == 3)
        let deleted = try await executor.delete(from: "Order Details", where: RowFilter([.init("id", .isIn([1, 2]))]), confirmed: true)
        #expect(deleted.rowsAffected == 2)
        #expect(try database.scalar("SELECT count(*) FROM parent", as: Int.self) == 2)
    }

    @Test("structured requests with unknown names, generated columns or no filter are refused")
    func structuredErrors() async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try database.executor(.unrestricted)
        await #expect(throws: SwiftDBAIError.unknownTable("nope", available: ["Order Details", "parent", "child"])) {
            _ = try await executor.insert(into: "nope", rows: [["a": 1]])
        }
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.insert(into: "parent", rows: [["id\" = 1; --": 1]])
        }
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.update("Order Details", set: ["total": 1], where: RowFilter(equalities: ["id": 1]))
        }
        let error = await caughtError { () async throws(SwiftDBAIError) in
            try await executor.delete(from: "child", where: RowFilter(), confirmed: true)
        }
        guard case .rejected(let rejection) = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect(rejection.code == .missingFilter)
        await #expect(throws: SwiftDBAIError.self) {
            _ = try await executor.update("child", set: ["parent_id": 2], where: RowFilter())
        }
        #expect(try database.contents() == before)
        let all = try await executor.update("child", set: ["parent_id": 2], where: RowFilter(), allRows: true)
        #expect(all.rowsAffected == 3)
    }

    @Test("a preview counts and shows the rows a delete would remove, and changes nothing")
    func preview() async throws {
        let database = try ScratchDatabase(Self.script)
        let before = try database.contents()
        let executor = try database.executor(.unrestricted)
        let builder = try await executor.statementBuilder()
        let statement = try builder.delete(from: "Order Details", where: RowFilter([.init("qty", .greaterThan(1))]))
        let preview = try await executor.preview([statement], expecting: .delete)
        #expect(preview.rowsAffected == 2)
        #expect(preview.affectedRows?.rows.map { $0[0] } == [2, 3])
        #expect(try database.contents() == before)
    }
}
