import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Groups with none, when the question includes them")
struct EmptyGroupGuessTests {
    @Test("the question's wording")
    func wording() {
        #expect(EmptyGroupGuess.asksForEmptyGroups("How many orders has each customer placed? Include customers with no orders."))
        #expect(EmptyGroupGuess.asksForEmptyGroups("Count the reviews per product, including products nobody reviewed"))
        #expect(EmptyGroupGuess.asksForEmptyGroups("Reviews per product, even those without any?"))
        #expect(!EmptyGroupGuess.asksForEmptyGroups("How many orders has each customer placed?"))
        #expect(!EmptyGroupGuess.asksForEmptyGroups("Include the city. Which customers have no orders?"), "not in the same sentence")
        #expect(!EmptyGroupGuess.asksForEmptyGroups(""))
        // Adversarial: the question names groups with none only to leave them out.
        #expect(!EmptyGroupGuess.asksForEmptyGroups("Include only the products with no discount, and count their reviews."))
        #expect(!EmptyGroupGuess.asksForEmptyGroups("Reviews per product; exclude products with no reviews, even new ones."))
        #expect(!EmptyGroupGuess.asksForEmptyGroups("Count orders per customer, except customers with no address; include the city."))
    }

    @Test("an inner join becomes a LEFT JOIN from the referred table, counting the referring rows, and the statement runs")
    func rewritten() async throws {
        let (executor, schema, _, _) = try await ShopDatabase.fixture()
        let question = "How many reviews does each product have? Include products with no reviews."
        let parentFirst = try #require(EmptyGroupGuess().applied(to: 
            "SELECT p.name, COUNT(*) FROM products AS p JOIN reviews AS r ON r.product_id = p.id GROUP BY p.id, p.name", question: question, schema: schema))
        #expect(parentFirst == "SELECT p.name, COUNT(r.id) FROM products AS p LEFT JOIN reviews AS r ON r.product_id = p.id GROUP BY p.id, p.name")
        let expected: [[SQLValue]] = [[.text("Mug"), .integer(2)], [.text("Pin"), .integer(0)], [.text("Poster"), .integer(1)]]
        #expect(try await executor.query(parentFirst + " ORDER BY p.name").rows == expected)
        let childFirst = try #require(EmptyGroupGuess().applied(to: 
            "SELECT T2.name, COUNT(T1.rating) FROM reviews T1 INNER JOIN products T2 ON T1.product_id = T2.id GROUP BY T2.name", question: question, schema: schema))
        #expect(childFirst == "SELECT T2.name, COUNT(T1.rating) FROM products T2 LEFT JOIN reviews T1 ON T1.product_id = T2.id GROUP BY T2.name")
        #expect(try await executor.query(childFirst + " ORDER BY T2.name").rows == expected)
    }

    @Test("left alone: not asked, already LEFT, WHERE on the referring table, grouped by it, three tables, COUNT DISTINCT, no foreign key, odd text")
    func leftAlone() async throws {
        let (_, schema, _, _) = try await ShopDatabase.fixture()
        let question = "Reviews per product, including products with none."
        #expect(EmptyGroupGuess().applied(to: "SELECT p.name, COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.name",
                                               question: "Reviews per product?", schema: schema) == nil)
        for sql in [
            "SELECT p.name, COUNT(r.id) FROM products p LEFT JOIN reviews r ON r.product_id = p.id GROUP BY p.name",
            "SELECT p.name, COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id WHERE r.rating > 3 GROUP BY p.name",
            "SELECT p.name, COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id WHERE rating > 3 GROUP BY p.name",
            "SELECT r.rating, COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY r.rating",
            "SELECT p.name, COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id JOIN order_items i ON i.product_id = p.id GROUP BY p.name",
            "SELECT p.name, COUNT(DISTINCT r.id) FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.name",
            "SELECT p.name, COUNT(*) FROM products p JOIN reviews r ON r.id = p.id GROUP BY p.name",
            "SELECT p.name, COUNT(*) FROM products p JOIN reviews r ON r.product_id = p.id",
            "SELECT p.name, COUNT(p.id) FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.name",
            "SELECT", "SELECT COUNT( FROM products p JOIN reviews r ON GROUP BY", "SELECT p.name FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY",
        ] {
            #expect(EmptyGroupGuess().applied(to: sql, question: question, schema: schema) == nil, "\(sql)")
        }
    }
}
