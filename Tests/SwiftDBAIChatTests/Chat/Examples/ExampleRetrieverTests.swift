import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Examples: the ones most like a question go with it")
struct ExampleRetrieverTests {
    static let examples = [
        ChatExample(question: "How many customers signed up in 2024?", sql: "SELECT COUNT(*) FROM customers WHERE created_at LIKE '2024%'"),
        ChatExample(question: "What did refunds cost us last month, in dollars?", sql: "SELECT SUM(amount_cents) / 100.0 FROM refunds"),
        ChatExample(question: "Which customers have never placed an order?", sql: "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)"),
        ChatExample(question: "How many orders did each customer place?", sql: "SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id"),
    ]

    @Test("the examples sharing the most telling words come first; rarer words weigh more; ties keep the file's order")
    func ranking() {
        let retriever = ExampleRetriever(examples: Self.examples)
        #expect(retriever.examples(for: "How much have refunds cost in dollars?", limit: 1).map(\.sql) == [Self.examples[1].sql])
        #expect(retriever.examples(for: "Which customers never ordered anything?", limit: 2).map(\.question)
            == [Self.examples[2].question, Self.examples[0].question])
        #expect(retriever.examples(for: "customers", limit: 3).map(\.question)
            == [Self.examples[0].question, Self.examples[2].question, Self.examples[3].question])
    }

    @Test("no example shares a word: none is sent; a limit of 0 or no examples: none")
    func nothingShared() {
        let retriever = ExampleRetriever(examples: Self.examples)
        #expect(retriever.examples(for: "How many are there?", limit: 3).isEmpty)
        #expect(retriever.examples(for: "Which warehouses ship to Oslo?", limit: 3).isEmpty)
        #expect(retriever.examples(for: "refunds", limit: 0).isEmpty)
        #expect(ExampleRetriever(examples: []).examples(for: "refunds", limit: 3).isEmpty)
    }

    static let albumExamples = [
        ChatExample(question: "Which albums came out before 1985?", sql: "SELECT title FROM album WHERE year < 1985"),
        ChatExample(question: "Which artists made an album?", sql: "SELECT name FROM artist WHERE id IN (SELECT artist_id FROM album)"),
        ChatExample(question: "Name the oldest album\nand its artist", sql: "SELECT a.title, r.name FROM album a JOIN artist r ON r.id = a.artist_id ORDER BY year LIMIT 1;"),
    ]

    @Test("examples that fit go into the system prompt after the schema, all of them, the same for every question")
    func inTheSystemPrompt() async throws {
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM album"), .text("SELECT COUNT(*) FROM artist")])
        let (engine, _) = try ChatEngineTests().engine(
            model, configuration: ChatConfiguration(summary: .deterministic, examples: Self.albumExamples, examplesPerQuestion: 2))
        _ = try await engine.send("How many albums came out, and which is the oldest?")
        _ = try await engine.send("How many artists are there?")
        let system = try #require(model.requests.first?.messages.first?.content)
        #expect(model.requests.last?.messages.first?.content == system)
        let schema = try #require(system.range(of: "CREATE TABLE"))
        let examples = try #require(system.range(of: "Examples of questions on this database and the SQL that answers them:\n"))
        #expect(schema.lowerBound < examples.lowerBound)
        #expect(system.hasSuffix("-- Name the oldest album and its artist\nSELECT a.title, r.name FROM album a JOIN artist r ON r.id = a.artist_id ORDER BY year LIMIT 1;"))
        #expect(system.contains("-- Which artists made an album?\n") && system.contains("-- Which albums came out before 1985?\n"))
        #expect(model.requests.first?.messages.last?.content == "Question: How many albums came out, and which is the oldest?")
        #expect(model.requests.last?.messages.last?.content == "Question: How many artists are there?")
    }

    @Test("examples that do not fit the context go with each question, the most like it first; the system prompt never changes")
    func withTheQuestion() async throws {
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM album"), .text("SELECT COUNT(*) FROM artist")])
        // Long examples: together more than the system prompt has room for in a 3,584-token context.
        let padding = String(repeating: " AND year IS NOT NULL", count: 40)
        let examples = Self.albumExamples.map { ChatExample(question: $0.question, sql: $0.sql.replacingOccurrences(of: ";", with: "") + padding) }
            + (1...4).map { ChatExample(question: "Which songs of batch \($0) are long?", sql: "SELECT title FROM album WHERE year > 1900" + padding) }
        let configuration = ChatConfiguration(summary: .deterministic, examples: examples, examplesPerQuestion: 2, contextTokens: 3_584)
        let (engine, _) = try ChatEngineTests().engine(model, configuration: configuration)
        _ = try await engine.send("How many albums came out, and which is the oldest?")
        _ = try await engine.send("How many artists are there?")
        let first = try #require(model.requests.first?.messages.last?.content)
        #expect(first.hasPrefix("Examples of questions on this database and the SQL that answers them:\n"))
        #expect(first.contains("-- Which albums came out before 1985?\nSELECT title FROM album WHERE year < 1985"))
        #expect(first.contains("-- Name the oldest album and its artist\nSELECT a.title"))
        #expect(!first.contains("Which artists made an album?"))
        #expect(first.hasSuffix("Question: How many albums came out, and which is the oldest?"))
        let second = try #require(model.requests.last?.messages.last?.content)
        #expect(second.contains("-- Which artists made an album?") && !second.contains("before 1985"))
        #expect(model.requests.first?.messages.first == model.requests.last?.messages.first)
        #expect(!(model.requests.first?.messages.first?.content.contains("before 1985") ?? true))
        for request in model.requests {
            #expect(TokenEstimate.tokens(in: request.messages) + 400 <= 3_584)
        }
    }
}
