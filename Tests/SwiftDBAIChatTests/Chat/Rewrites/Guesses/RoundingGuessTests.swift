import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Rounding the question asks for")
struct RoundingGuessTests {
    @Test("the places a question names")
    func places() {
        #expect(RoundingGuess.places(in: "What's the average rating, rounded to two decimal places?") == 2)
        #expect(RoundingGuess.places(in: "Round to one decimal place.") == 1)
        #expect(RoundingGuess.places(in: "average price (to 2 decimals)") == 2)
        #expect(RoundingGuess.places(in: "the average order, to the nearest cent") == 2)
        #expect(RoundingGuess.places(in: "How many days, to the nearest whole number?") == 0)
        #expect(RoundingGuess.places(in: "What is the average rating?") == nil)
        #expect(RoundingGuess.places(in: "Which decimal column is largest?") == nil)
    }

    @Test("averages, sums and divisions of the outer SELECT are wrapped, their aliases kept")
    func wrapped() async throws {
        let (executor, _, _, _) = try await ShopDatabase.fixture()
        let question = "What is the average rating per product, rounded to two decimals?"
        let sql = "SELECT p.name, AVG(r.rating) AS average, COUNT(*) n FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.id"
        let rewritten = try #require(RoundingGuess().applied(to: sql, question: question))
        #expect(rewritten == "SELECT p.name, ROUND(AVG(r.rating), 2) AS average, COUNT(*) n FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.id")
        #expect(try await executor.query(rewritten).rowCount == 2)
        #expect(RoundingGuess().applied(to: "SELECT CAST(SUM(total_cents) AS REAL) / COUNT(*) avg_total FROM orders", question: question)
            == "SELECT ROUND(CAST(SUM(total_cents) AS REAL) / COUNT(*), 2) avg_total FROM orders")
    }

    @Test("left alone: no rounding asked, ROUND already there, counts and plain columns, compound statements, writes")
    func leftAlone() {
        let question = "Give it rounded to two decimals."
        #expect(RoundingGuess().applied(to: "SELECT AVG(rating) FROM reviews", question: "What is the average rating?") == nil)
        for sql in [
            "SELECT ROUND(AVG(rating), 1) FROM reviews", "SELECT COUNT(*), name FROM products GROUP BY name",
            "SELECT AVG(rating) FROM reviews UNION SELECT 1", "UPDATE reviews SET rating = rating / 2",
            "SELECT", "SELECT FROM", "SELECT CASE WHEN rating > 3 THEN 1 ELSE 0 END FROM reviews",
        ] {
            #expect(RoundingGuess().applied(to: sql, question: question) == nil, "\(sql)")
        }
    }

    @Test("adversarial: decimals named for another reason, ROUND already there, nothing fractional in the result")
    func adversarial() async throws {
        // Decimals named, but nothing in the statement to round: no guess.
        for (sql, question) in [
            ("SELECT name FROM products WHERE price_cents % 100 <> 0", "Which products have a price with two decimal places?"),
            ("SELECT COUNT(*) FROM reviews", "How many reviews are there, to the nearest whole number?"),
            ("SELECT ROUND(AVG(rating), 2) FROM reviews", "What is the average rating, rounded to two decimals?"),
            ("SELECT round(avg(rating) * 100) / 100 FROM reviews", "What is the average rating, rounded to two decimals?"),
        ] {
            #expect(RoundingGuess().applied(to: sql, question: question) == nil, "\(sql) for \(question)")
        }
        // Something to round, but the decimals are about something else: no rounding asked.
        for question in [
            "What is the average rating of products with two decimal prices?",
            "What is the average of the prices with 2 decimals stored?",
            "What is the average of the prices kept with two decimal places stored?",
            "Which decimal type holds the average rating?",
        ] {
            #expect(RoundingGuess.places(in: question) == nil, "\(question)")
            #expect(RoundingGuess().applied(to: "SELECT AVG(rating) FROM reviews", question: question) == nil, "\(question)")
        }
    }
}
