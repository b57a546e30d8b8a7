import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Repairing a column qualified with the wrong alias")
struct ColumnQualifierRepairTests {
    @Test("the column moves to the one other table of the statement that has it")
    func repaired() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = """
            SELECT T2.Country FROM Customer AS T1 JOIN Invoice AS T2 ON T1.CustomerId = T2.CustomerId \
            WHERE T2.BillingCity <> 'T2.Country' GROUP BY T2.Country
            """
        let repaired = ColumnQualifierRepair().applied(to: sql, error: "SQLite cannot compile the statement: no such column: T2.Country.", schema: schema)
        #expect(repaired == """
            SELECT T1.Country FROM Customer AS T1 JOIN Invoice AS T2 ON T1.CustomerId = T2.CustomerId \
            WHERE T2.BillingCity <> 'T2.Country' GROUP BY T1.Country
            """)
        let quoted = ColumnQualifierRepair().applied(to: 
            #"SELECT COUNT("p"."TrackId") FROM Playlist "p", PlaylistTrack pt WHERE p.PlaylistId = pt.PlaylistId"#,
            error: "no such column: p.TrackId", schema: schema)
        #expect(quoted == #"SELECT COUNT(pt."TrackId") FROM Playlist "p", PlaylistTrack pt WHERE p.PlaylistId = pt.PlaylistId"#)
    }

    @Test("a table qualified by its own name after it got an alias gets its alias back, everywhere; not when it also appears unaliased")
    func aliasRestored() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let executor = try TestDatabase.chinook()
        let sql = "SELECT SUM(InvoiceLine.UnitPrice) FROM Invoice AS i JOIN InvoiceLine AS il ON il.InvoiceId = i.InvoiceId "
            + "WHERE InvoiceLine.Quantity = 1 AND i.BillingCountry = 'InvoiceLine.x'"
        let repaired = try #require(ColumnQualifierRepair().applied(to: sql, error: "no such column: InvoiceLine.UnitPrice", schema: schema))
        #expect(repaired == "SELECT SUM(il.UnitPrice) FROM Invoice AS i JOIN InvoiceLine AS il ON il.InvoiceId = i.InvoiceId "
            + "WHERE il.Quantity = 1 AND i.BillingCountry = 'InvoiceLine.x'")
        #expect(try await executor.query(repaired).rowCount == 1)
        let twice = "SELECT InvoiceLine.UnitPrice FROM InvoiceLine il WHERE il.TrackId IN (SELECT TrackId FROM InvoiceLine)"
        #expect(ColumnQualifierRepair().applied(to: twice, error: "no such column: InvoiceLine.UnitPrice", schema: schema) == nil)
        let noColumn = "SELECT Invoice.Name FROM Invoice i"
        #expect(ColumnQualifierRepair().applied(to: noColumn, error: "no such column: Invoice.Name", schema: schema) == nil)
    }

    @Test("no repair when a table one key away, outside the statement, has the column (a join is missing)")
    func missingJoin() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = "SELECT T2.Name FROM Track AS T1 JOIN Album AS T2 ON T1.AlbumId = T2.AlbumId WHERE T1.Name = 'Fast As a Shark'"
        #expect(ColumnQualifierRepair().applied(to: sql, error: "no such column: T2.Name", schema: schema) == nil)
    }

    @Test("no repair that compares a column with itself, none for ambiguous owners or other errors")
    func refused() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let tautology = "SELECT T2.Name FROM Track AS T1 JOIN Artist AS T2 ON T1.ArtistId = T2.ArtistId"
        #expect(ColumnQualifierRepair().applied(to: tautology, error: "no such column: T1.ArtistId", schema: schema) == nil)
        let ambiguous = "SELECT g.Composer FROM Genre g JOIN Track t ON t.GenreId = g.GenreId JOIN Track u ON u.TrackId = t.TrackId"
        #expect(ColumnQualifierRepair().applied(to: ambiguous, error: "no such column: g.Composer", schema: schema) == nil)
        #expect(ColumnQualifierRepair().applied(to: "SELECT x FROM Track", error: "no such column: x", schema: schema) == nil)
        #expect(ColumnQualifierRepair().applied(to: "SELECT * FROM Nowhere", error: "no such table: Nowhere", schema: schema) == nil)
    }

    @Test("aliases are read after FROM, JOIN and commas; keywords are not aliases")
    func aliases() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let tokens = SQLTokens("SELECT * FROM main.Track t, [Album] AS a LEFT JOIN Artist WHERE 1 -- FROM Genre g").tokens
        let found = TableReference.all(in: tokens, schema: schema).map { "\($0.alias)=\($0.table)" }
        #expect(found == ["t=Track", "a=Album", "Artist=Artist"])
    }
}
