import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("The grouped-by columns first")
struct GroupKeyOrderTests {
    @Test("a grouped-by column after an aggregate moves to the front; the others keep their order")
    func moved() {
        #expect(GroupKeyOrder().applied(to: "SELECT SUM(amount_cents) / 100.0 AS total_dollars, reason FROM refunds GROUP BY reason")
            == "SELECT reason, SUM(amount_cents) / 100.0 AS total_dollars FROM refunds GROUP BY reason")
        #expect(GroupKeyOrder().applied(to: "SELECT COUNT(*), AVG(r.rating), g.Name AS genre FROM Genre g JOIN Track r GROUP BY g.Name")
            == "SELECT g.Name AS genre, COUNT(*), AVG(r.rating) FROM Genre g JOIN Track r GROUP BY g.Name")
        #expect(GroupKeyOrder().applied(to: "SELECT SUM(total), strftime('%Y-%m', created_at) AS month FROM orders GROUP BY month ORDER BY month")
            == "SELECT strftime('%Y-%m', created_at) AS month, SUM(total) FROM orders GROUP BY month ORDER BY month")
    }

    @Test("left alone: keys already first, no GROUP BY, no key in the list, compound statements, ORDER BY a position, odd text")
    func leftAlone() {
        for sql in [
            "SELECT reason, SUM(amount_cents) FROM refunds GROUP BY reason",
            "SELECT SUM(amount_cents), reason FROM refunds",
            "SELECT SUM(amount_cents) FROM refunds GROUP BY reason",
            "SELECT SUM(a), b FROM t GROUP BY b UNION SELECT 1, 2",
            "SELECT COUNT(*), genre FROM tracks GROUP BY genre ORDER BY 1 DESC LIMIT 3",
            "SELECT COUNT(*), genre FROM tracks GROUP BY genre ORDER BY genre, 1 DESC",
            "SELECT COUNT(*), x FROM t GROUP BY", "SELECT , FROM t GROUP BY ,", "SELECT",
        ] {
            #expect(GroupKeyOrder().applied(to: sql) == nil, "\(sql)")
        }
    }
}
