import Testing
@testable import SwiftDBAI

@Suite("Repairs and corrections on odd input")
struct RepairOddInputTests {
    static let odd = [
        "", " ", "(", ")", ",", ".", "SELECT", "SELECT DISTINCT", "SELECT FROM", "SELECT a FROM", "SELECT * FROM Track t JOIN",
        "SELECT t.Name FROM Track t GROUP BY", "SELECT t.Name FROM Track t GROUP BY t.", "SELECT t.Name FROM Track t GROUP BY ,",
        "SELECT SUM(x) AS FROM Track HAVING", "SELECT SUM(x) AS Total FROM Invoice HAVING", "SELECT YEAR(", "SELECT YEAR(()",
        "SELECT YEAR())) FROM", "SELECT 'unterminated FROM Track", #"SELECT "unterminated FROM Track"#, "SELECT [a FROM Track",
        "SELECT t.Name FROM Track t JOIN InvoiceLine l ON", "SELECT t.Name FROM Track t JOIN InvoiceLine l ON l.TrackId =",
        "FROM FROM JOIN JOIN ON ON", "SELECT ArtistId FROM Track AS", "SELECT x.y.z FROM a.b.c d", "SELECT 🎸.Name FROM Artist 🎸",
        "SELECT T1.Name FROM Track AS T1, Artist AS T2 WHERE T1.ArtistId = T2.ArtistId",
        "SELECT DATEDIFF(day, , ) FROM Track", "SELECT CONCAT() FROM Track",
    ]

    static let errors = [
        "no such column: T1.ArtistId", "no such column: t.", "no such column: ", "no such function: YEAR",
        #"near "x": syntax error"#, "no such column: 🎸.Name", "no such column: x.y.z",
    ]

    @Test("nothing crashes, and what comes back differs from what went in")
    func noCrash() async throws {
        let schema = try await TestDatabase.chinookSchema()
        for sql in Self.odd {
            for error in Self.errors {
                for repaired in [
                    JoinBridgeRepair.repair(sql, error: error, schema: schema),
                    ForeignFunctionRepair.repair(sql, error: error, schema: schema),
                    ColumnQualifierRepair.repair(sql, error: error, schema: schema),
                    UnquotedNameRepair.repair(sql, error: error, schema: schema),
                ] {
                    if let repaired { #expect(repaired != sql) }
                }
            }
            for rewritten in [
                EntityGrouping.rewritten(sql, schema: schema),
                HavingAliasCorrection.rewritten(sql, schema: schema),
                UnusedJoinRemoval.rewritten(sql, question: "List everything", schema: schema),
            ] {
                if let rewritten { #expect(rewritten != sql) }
            }
        }
    }
}
