import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("HAVING uses the aggregate its alias names")
struct HavingAliasCorrectionTests {
    @Test("an alias that is also a column's name is replaced by its aggregate in HAVING, and the filter becomes right")
    func replaced() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = """
            SELECT c.LastName, SUM(il.UnitPrice * il.Quantity) AS Total FROM Customer c \
            JOIN Invoice i ON c.CustomerId = i.CustomerId JOIN InvoiceLine il ON i.InvoiceId = il.InvoiceId \
            GROUP BY c.CustomerId HAVING Total > 45 AND "total" < 1000 ORDER BY Total DESC
            """
        let rewritten = try #require(HavingAliasCorrection().applied(to: sql, schema: schema))
        #expect(rewritten.hasSuffix(
            "HAVING (SUM(il.UnitPrice * il.Quantity)) > 45 AND (SUM(il.UnitPrice * il.Quantity)) < 1000 ORDER BY Total DESC"))
        let executor = try TestDatabase.chinook()
        let withSubquery = sql.replacingOccurrences(
            of: "ORDER BY", with: "AND c.CustomerId IN (SELECT CustomerId FROM Invoice WHERE Total > 20) ORDER BY")
        let rewrittenWithSubquery = try #require(HavingAliasCorrection().applied(to: withSubquery, schema: schema))
        #expect(rewrittenWithSubquery.contains("(SELECT CustomerId FROM Invoice WHERE Total > 20)"), "the subquery's Total is a column")
        #expect(try await executor.query(rewrittenWithSubquery).rowCount > 0)
        // Bound to Invoice.Total of one invoice, the filter keeps nobody.
        #expect(try await executor.query(sql).rowCount == 0)
        #expect(try await executor.query(rewritten).rowCount == 5)
    }

    @Test("left alone: aliases no column shadows, aliases of plain columns, qualified names, no HAVING, HAVING in a subquery, a grouped column")
    func leftAlone() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let unchanged = [
            "SELECT CustomerId, SUM(Total) AS spent FROM Invoice GROUP BY CustomerId HAVING spent > 40",
            "SELECT CustomerId, Total AS Total FROM Invoice GROUP BY CustomerId HAVING Total > 40",
            "SELECT CustomerId, SUM(Total) AS Total FROM Invoice i GROUP BY CustomerId HAVING i.Total > 40",
            "SELECT CustomerId, SUM(Total) AS Total FROM Invoice GROUP BY CustomerId ORDER BY Total",
            "SELECT * FROM (SELECT CustomerId, SUM(Total) AS Total FROM Invoice GROUP BY CustomerId HAVING Total > 40)",
            // Grouped by the column, HAVING reads it as written: a meaning someone can have.
            "SELECT Total, COUNT(*) AS Total FROM Invoice GROUP BY Total HAVING Total > 20",
            "SELECT i.Total, SUM(i.Total) AS Total FROM Invoice i GROUP BY i.CustomerId, i.Total HAVING Total > 20",
            // A subquery in HAVING names its own columns.
            "SELECT CustomerId, SUM(Total) AS spent FROM Invoice GROUP BY CustomerId HAVING CustomerId IN (SELECT CustomerId FROM Invoice WHERE Total > 20)",
        ]
        for sql in unchanged {
            #expect(HavingAliasCorrection().applied(to: sql, schema: schema) == nil, "\(sql)")
        }
    }
}
