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

    @Test("the examples go after the cached schema, before the question, the most like it first; the system prompt never changes")
    func inThePrompt() async throws {
        let model = ScriptedModel([.text("SELECT COUNT(*) FROM album"), .text("SELECT COUNT(*) FROM artist")])
        let examples = [
            ChatExample(question: "Which albums came out before 1985?", sql: "SELECT title FROM album WHERE year < 1985"),
            ChatExample(question: "Which artists made an album?", sql: "SELECT name FROM artist WHERE id IN (SELECT artist_id FROM album)"),
            ChatExample(question: "Name the oldest album\nand its artist", sql: "SELECT a.title, r.name FROM album a JOIN artist r ON r.id = a.artist_id ORDER BY year LIMIT 1;"),
        ]
        let (engine, _) = try ChatEngineTests().engine(
            model, configuration: ChatConfiguration(summary: .deterministic, examples: examples, examplesPerQuestion: 2))
        _ = try await engine.send("How many albums came out, and which is the oldest?")
        _ = try await engine.send("How many artists are there?")
        let first = try #require(model.requests.first?.messages.last?.content)
        #expect(first.hasPrefix("Examples of questions on this database and the SQL that answers them:\n"))
        #expect(first.contains("-- Which albums came out before 1985?\nSELECT title FROM album WHERE year < 1985;"))
        #expect(first.contains("-- Name the oldest album and its artist\nSELECT a.title"))
        #expect(!first.contains("Which artists made an album?"))
        #expect(first.hasSuffix("Question: How many albums came out, and which is the oldest?"))
        let second = try #require(model.requests.last?.messages.last?.content)
        #expect(second.contains("-- Which artists made an album?") && !second.contains("before 1985"))
        #expect(model.requests.first?.messages.first == model.requests.last?.messages.first)
        #expect(!(model.requests.first?.messages.first?.content.contains("before 1985") ?? true))
    }
}
