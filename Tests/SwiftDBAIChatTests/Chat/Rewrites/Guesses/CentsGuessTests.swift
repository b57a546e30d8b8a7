import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Money stored in cents, asked in dollars")
struct CentsGuessTests {
    @Test("a cents column divided by the integer 100 keeps its cents")
    func division() async throws {
        let (executor, _, _, _) = try await ShopDatabase.fixture()
        let cases = [
            ("SELECT SUM(total_cents / 100) FROM orders WHERE status = 'paid'",
             "SELECT SUM(total_cents / 100.0) FROM orders WHERE status = 'paid'"),
            ("SELECT SUM(o.total_cents) / 100 FROM orders o", "SELECT SUM(o.total_cents) / 100.0 FROM orders o"),
            ("SELECT SUM(i.unit_price_cents * i.quantity / 100) AS revenue FROM order_items i",
             "SELECT SUM(i.unit_price_cents * i.quantity / 100.0) AS revenue FROM order_items i"),
        ]
        for (sql, expected) in cases {
            #expect(CentsGuess().applied(to: sql, question: "How much, in dollars?") == expected)
        }
        let corrected = try await executor.query(cases[0].1).rows.first?[0]
        guard case .real(let dollars)? = corrected else {
            Issue.record("a real number of dollars, not \(String(describing: corrected))")
            return
        }
        #expect(abs(dollars - 278.47) < 0.000_001)
        #expect(try await executor.query(cases[0].0).rows.first?[0] == .integer(277))
    }

    @Test("a dollar amount of the question compared with a cents column is turned into cents")
    func dollars() {
        #expect(CentsGuess.dollarAmounts(in: "Orders over $1,250.50 or 200 dollars, and 3 items") == [1250.5, 200])
        #expect(CentsGuess().applied(to: "SELECT name FROM products WHERE price_cents > 200", question: "Which products cost more than $200?")
            == "SELECT name FROM products WHERE price_cents > 20000")
        #expect(CentsGuess().applied(to: "SELECT name FROM products p WHERE 12.99 <= p.price_cents", question: "Anything from $12.99 up?")
            == "SELECT name FROM products p WHERE 1299 <= p.price_cents")
        #expect(CentsGuess().applied(to: 
            "SELECT name FROM products WHERE price_cents BETWEEN 10 AND 20", question: "Products between $10 and $20?")
            == "SELECT name FROM products WHERE price_cents BETWEEN 1000 AND 2000")
    }

    @Test("left alone: columns not in cents, other divisors, real division, amounts the question does not give")
    func leftAlone() {
        for sql in [
            "SELECT SUM(total) / 100 FROM orders",
            "SELECT SUM(total_cents) / 12 FROM orders",
            "SELECT SUM(total_cents) / 100.0 FROM orders",
            "SELECT 100 / total_cents FROM orders",
            "SELECT name FROM products WHERE price_cents > 20000",
            "SELECT name FROM products WHERE price_cents > 300",
            "SELECT name FROM products WHERE price > 200",
            "SELECT name FROM products WHERE price_cents >", "SELECT / 100", "SELECT price_cents /",
        ] {
            #expect(CentsGuess().applied(to: sql, question: "Which products cost more than $200?") == nil, "\(sql)")
        }
    }

    @Test("adversarial: an amount already in cents, arithmetic around the number, names that only contain 'cent'")
    func adversarial() {
        let question = "How many products cost over $20?"
        for sql in [
            "SELECT COUNT(*) FROM products WHERE price_cents > 20 * 100",
            "SELECT COUNT(*) FROM products WHERE price_cents > 100 * 20",
            "SELECT COUNT(*) FROM products WHERE price_cents > 2000",
            "SELECT COUNT(*) FROM products WHERE price_cents / 100.0 > 20",
            "SELECT COUNT(*) FROM products WHERE price_cents > 20 + 0",
            "SELECT COUNT(*) FROM products WHERE percent_off > 20",
            "SELECT COUNT(*) FROM products WHERE recent > 20",
        ] {
            #expect(CentsGuess().applied(to: sql, question: question) == nil, "\(sql)")
        }
    }
}
