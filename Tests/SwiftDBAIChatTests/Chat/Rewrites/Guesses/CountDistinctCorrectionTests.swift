import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Counting different things, not rows")
struct CountDistinctCorrectionTests {
    @Test("the words a question counts, and whether it asks for different things")
    func counted() {
        #expect(CountDistinctCorrection.countedThing(in: "How many different customers have ordered?")?.isDifferent == true)
        #expect(CountDistinctCorrection.countedThing(in: "How many different customers have ordered?")?.words.first == "customer")
        #expect(CountDistinctCorrection.countedThing(in: "How many customers have left at least one review?")?.isDifferent == false)
        #expect(CountDistinctCorrection.countedThing(in: "How many reviews are there?") == nil)
        #expect(CountDistinctCorrection.countedThing(in: "Which customers bought at least one mug?") == nil)
        #expect(CountDistinctCorrection.countedThing(in: "") == nil)
    }

    @Test("COUNT over a join that repeats the counted rows counts each one once, and the statement runs")
    func distinct() async throws {
        let (executor, schema, _, _) = try await ShopDatabase.fixture()
        let atLeastOne = "How many customers have placed at least one order?"
        let star = try #require(CountDistinctCorrection().applied(to: 
            "SELECT COUNT(*) FROM customers AS c JOIN orders AS o ON o.customer_id = c.id", question: atLeastOne, schema: schema))
        #expect(star == "SELECT COUNT(DISTINCT c.id) FROM customers AS c JOIN orders AS o ON o.customer_id = c.id")
        #expect(try await executor.query(star).rows == [[.integer(2)]], "Ada and Ben, not their 3 orders")
        let foreignKey = try #require(CountDistinctCorrection().applied(to: 
            "SELECT COUNT(o.customer_id) FROM customers c JOIN orders o ON o.customer_id = c.id", question: atLeastOne, schema: schema))
        #expect(try await executor.query(foreignKey).rows == [[.integer(2)]])
        let different = try #require(CountDistinctCorrection().applied(to: 
            "SELECT p.name, COUNT(o.customer_id) FROM products p JOIN order_items i ON i.product_id = p.id JOIN orders o ON o.id = i.order_id GROUP BY p.id",
            question: "How many different customers has each product had?", schema: schema))
        #expect(different == "SELECT p.name, COUNT(DISTINCT o.customer_id) FROM products p JOIN order_items i ON i.product_id = p.id JOIN orders o ON o.id = i.order_id GROUP BY p.id")
        #expect(try await executor.query(different + " ORDER BY p.id").rows
            == [[.text("Mug"), .integer(1)], [.text("Poster"), .integer(1)], [.text("Pin"), .integer(2)]])
        #expect(CountDistinctCorrection().applied(to: "SELECT COUNT(city) FROM customers", question: "How many distinct cities do customers live in?", schema: schema)
            == "SELECT COUNT(DISTINCT city) FROM customers")
    }

    @Test("left alone: no such wording, DISTINCT already, one table with COUNT(*), a column that is not the counted key, self-joins, subqueries, odd text")
    func leftAlone() async throws {
        let (_, schema, _, _) = try await ShopDatabase.fixture()
        let atLeastOne = "How many customers have placed at least one order?"
        #expect(CountDistinctCorrection().applied(to: "SELECT COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id",
                                                  question: "How many orders have customers placed?", schema: schema) == nil)
        for sql in [
            "SELECT COUNT(DISTINCT c.id) FROM customers c JOIN orders o ON o.customer_id = c.id",
            "SELECT COUNT(*) FROM customers WHERE id IN (SELECT customer_id FROM orders)",
            "SELECT COUNT(o.status) FROM customers c JOIN orders o ON o.customer_id = c.id",
            "SELECT COUNT(*) FROM customers a JOIN customers b ON a.city = b.city",
            "SELECT COUNT(*), COUNT(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id",
            "SELECT COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id UNION SELECT 1",
            "SELECT COUNT(", "SELECT COUNT() FROM customers c JOIN orders o", "SELECT", "UPDATE customers SET city = 'x'",
        ] {
            #expect(CountDistinctCorrection().applied(to: sql, question: atLeastOne, schema: schema) == nil, "\(sql)")
        }
    }
}
