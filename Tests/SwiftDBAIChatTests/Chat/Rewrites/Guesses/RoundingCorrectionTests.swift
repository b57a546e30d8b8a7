import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Rounding the question asks for")
struct RoundingCorrectionTests {
    @Test("the places a question names")
    func places() {
        #expect(RoundingCorrection.places(in: "What's the average rating, rounded to two decimal places?") == 2)
        #expect(RoundingCorrection.places(in: "Round to one decimal place.") == 1)
        #expect(RoundingCorrection.places(in: "average price (to 2 decimals)") == 2)
        #expect(RoundingCorrection.places(in: "the average order, to the nearest cent") == 2)
        #expect(RoundingCorrection.places(in: "How many days, to the nearest whole number?") == 0)
        #expect(RoundingCorrection.places(in: "What is the average rating?") == nil)
        #expect(RoundingCorrection.places(in: "Which decimal column is largest?") == nil)
    }

    @Test("averages, sums and divisions of the outer SELECT are wrapped, their aliases kept")
    func wrapped() async throws {
        let (executor, _, _, _) = try await ShopDatabase.fixture()
        let question = "What is the average rating per product, rounded to two decimals?"
        let sql = "SELECT p.name, AVG(r.rating) AS average, COUNT(*) n FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.id"
        let rewritten = try #require(RoundingCorrection().applied(to: sql, question: question))
        #expect(rewritten == "SELECT p.name, ROUND(AVG(r.rating), 2) AS average, COUNT(*) n FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.id")
        #expect(try await executor.query(rewritten).rowCount == 2)
        #expect(RoundingCorrection().applied(to: "SELECT CAST(SUM(total_cents) AS REAL) / COUNT(*) avg_total FROM orders", question: question)
            == "SELECT ROUND(CAST(SUM(total_cents) AS REAL) / COUNT(*), 2) avg_total FROM orders")
    }

    @Test("left alone: no rounding asked, ROUND already there, counts and plain columns, compound statements, writes")
    func leftAlone() {
        let question = "Give it rounded to two decimals."
        #expect(RoundingCorrection().applied(to: "SELECT AVG(rating) FROM reviews", question: "What is the average rating?") == nil)
        for sql in [
            "SELECT ROUND(AVG(rating), 1) FROM reviews", "SELECT COUNT(*), name FROM products GROUP BY name",
            "SELECT AVG(rating) FROM reviews UNION SELECT 1", "UPDATE reviews SET rating = rating / 2",
            "SELECT", "SELECT FROM", "SELECT CASE WHEN rating > 3 THEN 1 ELSE 0 END FROM reviews",
        ] {
            #expect(RoundingCorrection().applied(to: sql, question: question) == nil, "\(sql)")
        }
    }
}
