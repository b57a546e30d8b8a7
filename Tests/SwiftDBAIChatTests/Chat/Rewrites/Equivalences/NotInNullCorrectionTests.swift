import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// `NOT IN` a column that holds NULLs answers nothing until corrected.
@Suite("NOT IN with NULLs")
struct NotInNullCorrectionTests {
    @Test("NOT IN a column with NULLs gets IS NOT NULL in its subquery, with or without a WHERE")
    func notIn() async throws {
        let (executor, schema, profiles, _) = try await ShopDatabase.fixture()
        let sql = "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders)"
        let rewritten = try #require(NotInNullCorrection().applied(to: sql, schema: schema, profiles: profiles))
        #expect(rewritten == "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders WHERE promo_code_id IS NOT NULL)")
        #expect(try await executor.query(sql).rowCount == 0)
        #expect(try await executor.query(rewritten).rows.map { $0[0] } == [.text("UNUSED")])

        let filtered = try #require(NotInNullCorrection().applied(to: 
            "SELECT code FROM promo_codes p WHERE p.id NOT IN (SELECT DISTINCT o.promo_code_id FROM orders o WHERE o.status = 'paid' OR o.status = 'pending' ORDER BY 1) ORDER BY code",
            schema: schema, profiles: profiles))
        #expect(filtered == "SELECT code FROM promo_codes p WHERE p.id NOT IN (SELECT DISTINCT o.promo_code_id FROM orders o WHERE o.promo_code_id IS NOT NULL AND (o.status = 'paid' OR o.status = 'pending') ORDER BY 1) ORDER BY code")
        #expect(try await executor.query(filtered).rows.map { $0[0] } == [.text("UNUSED")])
    }

    @Test("NOT IN left alone: a column without NULLs, IN, several columns, a compound subquery, odd text")
    func notInLeftAlone() async throws {
        let (_, schema, profiles, _) = try await ShopDatabase.fixture()
        for sql in [
            "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)",
            "SELECT code FROM promo_codes WHERE id IN (SELECT promo_code_id FROM orders)",
            "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id, id FROM orders)",
            "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders UNION SELECT 1)",
            "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM",
            "SELECT code FROM promo_codes WHERE id NOT IN (SELECT",
            "SELECT code FROM promo_codes WHERE id NOT IN (1, 2)",
            // Already right: the subquery leaves out the NULLs.
            "SELECT code FROM promo_codes WHERE id NOT IN (SELECT promo_code_id FROM orders WHERE promo_code_id IS NOT NULL)",
            "SELECT code FROM promo_codes WHERE id NOT IN (SELECT o.promo_code_id FROM orders o WHERE o.status = 'paid' AND o.promo_code_id IS NOT NULL)",
        ] {
            #expect(NotInNullCorrection().applied(to: sql, schema: schema, profiles: profiles) == nil, "\(sql)")
        }
    }
}
