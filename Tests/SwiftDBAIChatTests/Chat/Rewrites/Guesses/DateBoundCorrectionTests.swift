import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Timestamps compared with a day")
struct DateBoundCorrectionTests {
    @Test("a timestamp column compared with a day alone by BETWEEN, <=, > or = is compared by its date")
    func compared() async throws {
        let (executor, schema, profiles, _) = try await ShopDatabase.fixture()
        #expect(try #require(profiles.first { $0.table == "orders" && $0.column == "created_at" }).holdsTimes)
        let sql = "SELECT COUNT(*) FROM orders WHERE created_at BETWEEN '2025-01-01' AND '2025-06-30'"
        let rewritten = try #require(DateBoundCorrection().applied(to: sql, schema: schema, profiles: profiles))
        #expect(rewritten == "SELECT COUNT(*) FROM orders WHERE date(created_at) BETWEEN '2025-01-01' AND '2025-06-30'")
        #expect(try await executor.query(sql).rows.first?[0] == .integer(1))
        #expect(try await executor.query(rewritten).rows.first?[0] == .integer(2))
        for (sql, expected) in [
            ("SELECT id FROM orders o WHERE o.created_at <= '2025-06-30'", "SELECT id FROM orders o WHERE date(o.created_at) <= '2025-06-30'"),
            ("SELECT id FROM orders WHERE created_at = '2025-06-30'", "SELECT id FROM orders WHERE date(created_at) = '2025-06-30'"),
            ("SELECT id FROM orders WHERE created_at > '2025-06-30'", "SELECT id FROM orders WHERE date(created_at) > '2025-06-30'"),
        ] {
            #expect(DateBoundCorrection().applied(to: sql, schema: schema, profiles: profiles) == expected)
        }
    }

    @Test("left alone: < and >=, a bound with a time, a column without times, a function of the column, writes")
    func leftAlone() async throws {
        let (_, schema, profiles, _) = try await ShopDatabase.fixture()
        for sql in [
            "SELECT id FROM orders WHERE created_at < '2025-07-01' AND created_at >= '2025-01-01'",
            "SELECT id FROM orders WHERE created_at <= '2025-06-30 23:59:59'",
            "SELECT id FROM orders WHERE date(created_at) = '2025-06-30'",
            "SELECT id FROM orders WHERE status = '2025-06-30'",
            "UPDATE orders SET status = 'x' WHERE created_at = '2025-06-30'",
            "SELECT id FROM orders WHERE created_at BETWEEN '2025-01-01' AND", "SELECT id FROM orders WHERE created_at =",
        ] {
            #expect(DateBoundCorrection().applied(to: sql, schema: schema, profiles: profiles) == nil, "\(sql)")
        }
    }
}
