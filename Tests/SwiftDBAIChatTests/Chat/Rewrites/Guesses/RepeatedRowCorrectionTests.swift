import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("A list repeated by a child join, and a sum where the question asks for an extreme")
struct RepeatedRowCorrectionTests {
    @Test("the columns of one table, joined to a table that refers to it, are listed once each")
    func distinct() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let executor = try TestDatabase.chinook()
        let sql = "SELECT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId WHERE al.Title LIKE 'The%'"
        let rewritten = try #require(RepeatedRowCorrection().applied(to: sql, schema: schema))
        #expect(rewritten == "SELECT DISTINCT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId WHERE al.Title LIKE 'The%'")
        let repeated = try await executor.query(sql).rowCount
        let once = try await executor.query(rewritten).rowCount
        #expect(once < repeated)
        #expect(try await executor.query("SELECT COUNT(DISTINCT ar.Name) FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId WHERE al.Title LIKE 'The%'").rows.first?[0] == .integer(Int64(once)))
        #expect(RepeatedRowCorrection().applied(to: 
            "SELECT Name AS artist FROM Artist JOIN Album ON Album.ArtistId = Artist.ArtistId ORDER BY Name", schema: schema)
            == "SELECT DISTINCT Name AS artist FROM Artist JOIN Album ON Album.ArtistId = Artist.ArtistId ORDER BY Name")
    }

    @Test("left alone: DISTINCT, aggregates, columns of two tables, LIMIT, a join to the referred table only, expressions, writes")
    func leftAlone() async throws {
        let schema = try await TestDatabase.chinookSchema()
        for sql in [
            "SELECT DISTINCT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId",
            "SELECT ar.Name, COUNT(*) FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId GROUP BY ar.ArtistId",
            "SELECT ar.Name, al.Title FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId",
            "SELECT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId LIMIT 3",
            "SELECT al.Title FROM Album al JOIN Artist ar ON al.ArtistId = ar.ArtistId",
            "SELECT upper(ar.Name) FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId",
            "SELECT * FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId",
            "SELECT ar.Name FROM Artist ar",
            "DELETE FROM Artist WHERE ArtistId IN (SELECT ArtistId FROM Album)",
            "SELECT ar.Name FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId UNION SELECT 'x'",
        ] {
            #expect(RepeatedRowCorrection().applied(to: sql, schema: schema) == nil, "\(sql)")
        }
    }

    @Test("a sum becomes MAX or MIN when the question asks for one extreme and not for a total")
    func superlative() {
        #expect(SuperlativeCorrection().applied(to: 
            "SELECT CAST(SUM(total_cents) AS REAL) / 100 FROM orders WHERE status = 'paid'",
            question: "What's the biggest paid order we've ever had, in dollars?")
            == "SELECT CAST(MAX(total_cents) AS REAL) / 100 FROM orders WHERE status = 'paid'")
        #expect(SuperlativeCorrection().applied(to: "SELECT SUM(price_cents) FROM products", question: "What is the cheapest product?")
            == "SELECT MIN(price_cents) FROM products")
        for (sql, question) in [
            ("SELECT SUM(total_cents) FROM orders", "What is the total of the biggest orders?"),
            ("SELECT SUM(total_cents) FROM orders", "How much did orders bring in?"),
            ("SELECT customer_id, SUM(total_cents) FROM orders GROUP BY customer_id", "Which customer spent the most, highest first?"),
            ("SELECT SUM(total_cents) FROM orders ORDER BY 1 DESC LIMIT 1", "Which is the biggest?"),
            ("SELECT MAX(total_cents) FROM orders", "What is the biggest order?"),
            ("SELECT SUM(total_cents) FROM orders", "What are the biggest and the smallest orders?"),
            ("UPDATE orders SET total_cents = 0", "Zero the largest order."),
        ] {
            #expect(SuperlativeCorrection().applied(to: sql, question: question) == nil, "\(sql)")
        }
    }
}
