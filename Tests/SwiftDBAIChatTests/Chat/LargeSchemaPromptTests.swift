import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("A schema of any size fits the prompt")
struct LargeSchemaPromptTests {
    /// 400 tables of 12 columns, each with a foreign key to the one before it and 3 rows.
    static func script(tables: Int) -> String {
        var lines: [String] = []
        for number in 1...tables {
            let name = String(format: "table_%04d", number)
            var columns = ["id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "status TEXT", "amount REAL", "created_at TEXT"]
            columns += (1...6).map { "attribute_\($0) TEXT" }
            columns.append(number > 1 ? String(format: "parent_id INTEGER REFERENCES table_%04d(id)", number - 1) : "parent_id INTEGER")
            lines.append("CREATE TABLE \(name) (\(columns.joined(separator: ", ")));")
            for row in 1...3 {
                lines.append("INSERT INTO \(name) VALUES (\(row), 'item \(row)', 'open', \(row).5, '2025-01-0\(row)', 'a', 'b', 'c', 'd', 'e', 'f', \(row));")
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test("400 tables: the system prompt names the tables, the question brings the ones it needs, and all of it fits 8,192 tokens")
    func fourHundredTables() async throws {
        let database = try ScratchDatabase(Self.script(tables: 400))
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM table_0123 t JOIN table_0122 p ON p.id = t.parent_id")])
        let configuration = ChatConfiguration(summary: .deterministic)
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        let response = try await engine.send("How many rows of table_0123 have a parent in table_0122?")
        #expect(response.queryResult?.rows == [[.integer(3)]])
        let request = try #require(model.requests.first)
        let system = try #require(request.messages.first?.content)
        let question = try #require(request.messages.last?.content)
        #expect(system.components(separatedBy: "CREATE TABLE").count == 1)
        #expect(system.contains("table_0001") && system.contains("table_0400"))
        #expect(question.contains("CREATE TABLE \"table_0123\"") && question.contains("CREATE TABLE \"table_0122\""))
        // Room for a 400-token answer: the whole request fits the local model's context.
        #expect(Self.tokens(in: request) + 400 < 8_192, "about \(Self.tokens(in: request)) tokens")
    }

    /// A request's tokens as Qwen's tokenizer counts them, about: a digit is a token of its
    /// own, other text about 3 characters a token (SQL is denser than prose).
    static func tokens(in request: LanguageModelRequest) -> Int {
        let text = request.messages.map(\.content).joined()
        let digits = text.filter(\.isNumber).count
        return digits + (text.count - digits) / 3
    }

    @Test("a table whose description, not its name, shares the question's words is picked, and its map line says it")
    func descriptionsChooseTables() async throws {
        let database = try ScratchDatabase(Self.script(tables: 400))
        var schema = try await database.executor().schema()
        let refunds = "Refunds customers asked for after a cancelled booking. One row per refund."
        schema.tables = schema.tables.map { table in
            var table = table
            if table.name == "table_0277" { table.description = refunds }
            // Words every table's description shares tell nothing.
            table.description = (table.description.map { $0 + " " } ?? "") + "Each row belongs to its parent row."
            return table
        }
        let picked = TableSelector(limit: 12).select(for: "How many refunds were there?", in: schema)
        #expect(picked.first == "table_0277")
        #expect(ChatPrompt.schemaMap(schema).contains("\"table_0277\"(") || ChatPrompt.schemaMap(schema).contains("table_0277("))
        #expect(ChatPrompt.schemaMap(schema).contains(") -- Refunds customers asked for after a cancelled booking."))
        // Tables a caller names come after the three that score highest.
        let including = TableSelector(limit: 12).select(for: "How many refunds were there?", in: schema, including: ["table_0321", "nope"])
        #expect(including.first == "table_0277" && including.contains("table_0321") && !including.contains("nope"))
    }

    @Test("the tables a question's worked examples read are described with it")
    func exampleTablesDescribed() async throws {
        let database = try ScratchDatabase(Self.script(tables: 400))
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM table_0277")])
        let examples = [ChatExample(question: "How many refunds have been issued?", sql: "SELECT COUNT(*) FROM table_0277 WHERE status = 'open'")]
        let configuration = ChatConfiguration(summary: .deterministic, examples: examples)
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        _ = try await engine.send("How many refunds were issued in total?")
        let question = try #require(model.requests.first?.messages.last?.content)
        #expect(question.contains("CREATE TABLE \"table_0277\""))
    }

    @Test("a schema whose table names alone do not fit a small context: only their number, and still the tables the question needs")
    func namesTooMany() async throws {
        let database = try ScratchDatabase(Self.script(tables: 200))
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM table_0042")])
        let configuration = ChatConfiguration(summary: .deterministic, contextTokens: 2_048)
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        _ = try await engine.send("How many rows are in table_0042?")
        let request = try #require(model.requests.first)
        let system = try #require(request.messages.first?.content)
        #expect(system.contains("The database has 200 tables and views") && !system.contains("table_0001"))
        let question = try #require(request.messages.last?.content)
        #expect(question.contains("table_0042"))
        #expect(TokenEstimate.tokens(in: request.messages) + 400 <= 2_048, "the request and a 400-token answer fit the context")
    }

    @Test("a small schema is described whole, as before")
    func smallSchema() async throws {
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM Album")])
        let engine = ChatEngine(executor: try TestDatabase.chinook(), model: model, configuration: ChatConfiguration(summary: .deterministic).oneCandidate)
        _ = try await engine.send("How many albums are there?")
        let system = try #require(model.requests.first?.messages.first?.content)
        #expect(system.components(separatedBy: "CREATE TABLE").count - 1 == 11)
        #expect(!(model.requests.first?.messages.last?.content.contains("CREATE TABLE") ?? true))
    }

    @Test("few but wide tables over the budget: the tables the question names come first, in full")
    func wideTables() async throws {
        var script: [String] = []
        for name in ["accounts", "ledgers", "journals", "entries", "vendors", "budgets", "refunds"] {
            let columns = (1...60).map { "\(name)_attribute_\($0) TEXT" }.joined(separator: ", ")
            script.append("CREATE TABLE \(name) (id INTEGER PRIMARY KEY, amount INTEGER, \(columns));")
            script.append("INSERT INTO \(name) (id, amount) VALUES (1, 5), (2, 7);")
        }
        // A view does not count among the tables that could all be described.
        script.append("CREATE VIEW accounts_in_credit AS SELECT id FROM accounts WHERE amount > 5;")
        let database = try ScratchDatabase(script.joined(separator: "\n"))
        let model = ScriptedModel([.text("SELECT SUM(amount) FROM refunds")])
        let configuration = ChatConfiguration(summary: .deterministic, contextTokens: 4_096)
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        let response = try await engine.send("What is the total amount of refunds?")
        #expect(response.queryResult?.rows == [[.integer(12)]])
        let question = try #require(model.requests.first?.messages.last?.content)
        let first = question.range(of: "CREATE TABLE")
        #expect(first != nil && first?.lowerBound == question.range(of: "CREATE TABLE \"refunds\"")?.lowerBound, "the table the question names comes first, in full")
    }

    /// Eight worked examples on table_0123, each with a long statement (about 110 tokens).
    static let longExamples = (1...8).map { number in
        ChatExample(
            question: "How many rows of table_0123 are open and were created in 2025, per status, for report \(number)?",
            sql: "SELECT status, COUNT(*) FROM table_0123 WHERE created_at LIKE '2025%' AND attribute_1 = 'a' "
                + String(repeating: "AND attribute_2 = 'b' ", count: 12) + "GROUP BY status")
    }

    @Test("400 tables with 8 long examples and a failed attempt: every request still fits 8,192 tokens")
    func everyRequestFits() async throws {
        let database = try ScratchDatabase(Self.script(tables: 400))
        let model = ScriptedModel([
            .text("SELECT nope FROM table_0123"),
            .text("SELECT nope FROM table_0123"),
            .text("SELECT COUNT(*) FROM table_0123"),
        ])
        let configuration = ChatConfiguration(summary: .deterministic, examples: Self.longExamples, examplesPerQuestion: 8)
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        let response = try await engine.send("How many rows of table_0123 are there?")
        #expect(response.queryResult?.rows == [[.integer(3)]] && model.requests.count == 3)
        for request in model.requests {
            #expect(Self.tokens(in: request) + 400 < 8_192, "about \(Self.tokens(in: request)) tokens")
        }
    }

    @Test("in the smallest context (2,048 tokens) with examples that do not fit, the question still gets its table in full")
    func smallestContextKeepsTheTables() async throws {
        let database = try ScratchDatabase(Self.script(tables: 400))
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM table_0123")])
        let configuration = ChatConfiguration(summary: .deterministic, examples: Self.longExamples, contextTokens: 2_048)
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: configuration.oneCandidate)
        _ = try await engine.send("How many rows of table_0123 are there?")
        let request = try #require(model.requests.first)
        #expect(request.messages.last?.content.contains("CREATE TABLE \"table_0123\"") == true)
        #expect(Self.tokens(in: request) + 400 <= 2_048, "about \(Self.tokens(in: request)) tokens")
    }
}
