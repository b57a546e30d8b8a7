import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Repairing functions of other SQL dialects")
struct ForeignFunctionRepairTests {
    static let schema = """
        CREATE TABLE visit(id INTEGER PRIMARY KEY, name TEXT, note TEXT, seen_on TEXT, paid_on TEXT);
        INSERT INTO visit VALUES (1, 'Ada', NULL, '2024-03-05', '2024-03-15'), (2, 'Bo', 'x', '2025-11-20 14:30:00', NULL);
        """

    static func repair(_ sql: String, error: String = "SQLite cannot compile the statement: no such function: YEAR.") async throws -> String? {
        ForeignFunctionRepair().applied(to: sql, error: error, schema: try await TestDatabase.schema(Self.schema))
    }

    @Test("date parts, DATEDIFF and the current date become SQLite's date functions")
    func dates() async throws {
        #expect(try await Self.repair("SELECT COUNT(*) FROM visit WHERE YEAR(seen_on) = 2024 AND month(seen_on) = 3") == """
            SELECT COUNT(*) FROM visit WHERE CAST(strftime('%Y', seen_on) AS INTEGER) = 2024 AND CAST(strftime('%m', seen_on) AS INTEGER) = 3
            """)
        #expect(try await Self.repair("SELECT AVG(DATEDIFF(paid_on, seen_on)) FROM visit") == "SELECT AVG((julianday(paid_on) - julianday(seen_on))) FROM visit")
        #expect(try await Self.repair("SELECT DATEDIFF(day, seen_on, paid_on) FROM visit") == "SELECT (julianday(paid_on) - julianday(seen_on)) FROM visit")
        #expect(try await Self.repair("SELECT * FROM visit WHERE seen_on < NOW() AND YEAR(CURDATE()) > 2000")
            == "SELECT * FROM visit WHERE seen_on < datetime('now') AND CAST(strftime('%Y', date('now')) AS INTEGER) > 2000")
        #expect(try await Self.repair("SELECT DAY(seen_on), HOUR(seen_on) FROM visit WHERE id = 2") == """
            SELECT CAST(strftime('%d', seen_on) AS INTEGER), CAST(strftime('%H', seen_on) AS INTEGER) FROM visit WHERE id = 2
            """)
    }

    @Test("string functions; strings and arguments with commas and parentheses survive")
    func strings() async throws {
        #expect(try await Self.repair("SELECT CONCAT(name, ', ', note), LEN(name) FROM visit WHERE name <> 'YEAR(x)'")
            == "SELECT (coalesce(name, '') || coalesce(', ', '') || coalesce(note, '')), length(name) FROM visit WHERE name <> 'YEAR(x)'")
        #expect(try await Self.repair("SELECT ISNULL(note, 'none'), STRING_AGG(name, ';') FROM visit")
            == "SELECT ifnull(note, 'none'), group_concat(name, ';') FROM visit")
        #expect(try await Self.repair("SELECT YEAR(substr(seen_on, 1, 10)) FROM visit")
            == "SELECT CAST(strftime('%Y', substr(seen_on, 1, 10)) AS INTEGER) FROM visit")
    }

    @Test("no repair for other errors, unknown functions, unexpected argument counts, or a column named like a function")
    func refused() async throws {
        #expect(try await Self.repair("SELECT YEAR(seen_on) FROM visit", error: "no such column: x") == nil)
        #expect(try await Self.repair("SELECT MEDIAN(id) FROM visit") == nil)
        #expect(try await Self.repair("SELECT YEAR(seen_on, 1), LEN() FROM visit") == nil)
        #expect(try await Self.repair("SELECT v.year FROM visit v") == nil)
    }

    @Test("the engine runs the repaired statement, and its result is right")
    func inEngine() async throws {
        let database = try ScratchDatabase(Self.schema)
        let model = ScriptedModel([.text("SELECT name, DATEDIFF(paid_on, seen_on) FROM visit WHERE YEAR(seen_on) = '2024'")])
        let engine = ChatEngine(executor: try database.executor(.readOnly), model: model, configuration: ChatEngineTests.noSummary.oneCandidate)
        let response = try await engine.send("How long did 2024 visits take to pay?")
        #expect(response.queryResult?.rows == [["Ada", 10.0]])
        #expect(model.requests.count == 1)
    }
}
