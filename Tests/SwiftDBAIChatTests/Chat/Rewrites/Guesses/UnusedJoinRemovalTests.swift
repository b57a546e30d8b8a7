import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Removing a join that only repeats rows")
struct UnusedJoinRemovalTests {
    @Test("a referring table joined for nothing is removed: each row once, rows without matches kept")
    func removed() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = "SELECT T1.FirstName, T1.LastName FROM Customer AS T1 INNER JOIN Invoice AS T2 ON T1.CustomerId = T2.CustomerId WHERE T1.City = 'Prague'"
        let rewritten = try #require(UnusedJoinRemoval().applied(to: sql, question: "Which customers live in Prague?", schema: schema))
        #expect(rewritten == "SELECT T1.FirstName, T1.LastName FROM Customer AS T1 WHERE T1.City = 'Prague'")
        let executor = try TestDatabase.chinook()
        #expect(try await executor.query(sql).rowCount == 14)
        #expect(try await executor.query(rewritten).rowCount == 2)

        let middle = try #require(UnusedJoinRemoval().applied(to: 
            "SELECT a.Title FROM Album a JOIN Track t ON t.AlbumId = a.AlbumId JOIN Artist r ON r.ArtistId = a.ArtistId WHERE r.Name = 'AC/DC' ORDER BY a.Title",
            question: "List all albums by AC/DC.", schema: schema))
        #expect(middle == "SELECT a.Title FROM Album a JOIN Artist r ON r.ArtistId = a.ArtistId WHERE r.Name = 'AC/DC' ORDER BY a.Title")
        #expect(try await executor.query(middle).rowCount == 2)
    }

    @Test("kept: the question names the table, its columns are used, DISTINCT or aggregates, LEFT joins, the referred table")
    func kept() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let join = "SELECT c.FirstName FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId"
        let unchanged: [(sql: String, question: String)] = [
            (join, "Which customers have invoices?"),
            (join + " WHERE i.Total > 20", "Which customers spent over 20 at once?"),
            ("SELECT DISTINCT c.FirstName FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId", "Who has bought something?"),
            ("SELECT c.City, COUNT(*) FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId GROUP BY c.City", "Which city has the most customers?"),
            ("SELECT c.FirstName FROM Customer c LEFT JOIN Invoice i ON i.CustomerId = c.CustomerId", "List the customers."),
            ("SELECT i.Total FROM Invoice i JOIN Customer c ON i.CustomerId = c.CustomerId", "List the totals."),
            ("SELECT * FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId", "Show customers."),
            ("SELECT c.FirstName FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId AND i.Total > 5", "List the customers."),
            ("SELECT c.FirstName, BillingCity FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId", "List the customers."),
            ("SELECT c.FirstName FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId WHERE c.CustomerId IN (SELECT 1)", "List them."),
        ]
        for (sql, question) in unchanged {
            #expect(UnusedJoinRemoval().applied(to: sql, question: question, schema: schema) == nil, "\(sql)")
        }
    }

    @Test("a sum over a parent's column loses the child joins that repeat it, and the tables joined only through them")
    func sums() async throws {
        let (executor, schema, _, _) = try await ShopDatabase.fixture()
        let sql = "SELECT SUM(T1.total_cents / 100.0) FROM orders AS T1 JOIN order_items ON order_items.order_id = T1.id INNER JOIN products AS T2 ON order_items.product_id = T2.id WHERE T1.status = 'paid'"
        let rewritten = try #require(UnusedJoinRemoval().applied(to: sql, question: "How much have paid orders brought in, in dollars?", schema: schema))
        #expect(rewritten == "SELECT SUM(T1.total_cents / 100.0) FROM orders AS T1 WHERE T1.status = 'paid'")
        let before = try await executor.query(sql).rows.first?[0]
        let after = try await executor.query(rewritten).rows.first?[0]
        #expect(before != after)
        #expect(try await executor.query("SELECT SUM(total_cents / 100.0) = (\(rewritten)) FROM orders WHERE status = 'paid'").rows.first?[0] == 1)
        for (sql, question) in [
            ("SELECT SUM(i.quantity) FROM orders o JOIN order_items i ON i.order_id = o.id", "How many items were ordered?"),
            ("SELECT COUNT(*), SUM(o.total_cents) FROM orders o JOIN order_items i ON i.order_id = o.id", "Order lines and revenue?"),
            ("SELECT SUM(DISTINCT o.total_cents) FROM orders o JOIN order_items i ON i.order_id = o.id", "Revenue?"),
            ("SELECT SUM(o.total_cents) FROM orders o JOIN promo_codes p ON o.promo_code_id = p.id", "Revenue with codes?"),
            ("SELECT SUM(o.total_cents) FROM orders o JOIN order_items i ON i.order_id = o.id", "Revenue of orders with items?"),
        ] {
            #expect(UnusedJoinRemoval().applied(to: sql, question: question, schema: schema) == nil, "\(sql)")
        }
    }

    @Test("in the engine the join that repeats rows is a doubt: the model decides, and its statement runs")
    func inEngine() async throws {
        let joined = "SELECT T1.FirstName FROM Customer AS T1 JOIN Invoice AS T2 ON T1.CustomerId = T2.CustomerId WHERE T1.City = 'Prague'"
        let model = ScriptedModel([.text(joined)], fallback: .text(joined))
        let engine = ChatEngine(
            executor: try TestDatabase.chinook(), model: model, configuration: ChatEngineTests.noSummary)
        let response = try await engine.send("Which customers live in Prague?")
        #expect(response.sql == joined && response.rewrites.isEmpty && response.queryResult?.rowCount == 14)
        #expect(response.lookedAgainFor == [
            "It joins a table it uses no column of: that join repeats rows (once per match) or drops those with none.",
            "The join lists each row once per matching row of the joined table, so rows repeat.",
        ])
        let agreeing = ScriptedModel([.text(joined), .text("SELECT FirstName FROM Customer WHERE City = 'Prague'")])
        let removed = try await ChatEngine(
            executor: try TestDatabase.chinook(), model: agreeing, configuration: ChatEngineTests.noSummary
        ).send("Which customers live in Prague?")
        #expect(removed.queryResult?.rowCount == 2 && !removed.sql.contains("Invoice") && removed.rewrites.isEmpty && removed.attempts == 2)
    }
}
