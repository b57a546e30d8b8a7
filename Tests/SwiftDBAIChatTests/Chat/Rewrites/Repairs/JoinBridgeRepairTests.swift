import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Repairing a join that skips a table")
struct JoinBridgeRepairTests {
    static func rows(_ sql: String) async throws -> [[SQLValue]] {
        try await TestDatabase.chinook().query(sql).rows
    }

    @Test("the table between is joined right after the table that lacks the column, and the column moves to it")
    func bridged() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = "SELECT T2.Name FROM Track AS T1 INNER JOIN Artist AS T2 ON T1.ArtistId = T2.ArtistId WHERE T1.Name = 'Fast As a Shark'"
        let repaired = try #require(JoinBridgeRepair().applied(to: sql, error: "SQLite cannot compile the statement: no such column: T1.ArtistId.", schema: schema))
        #expect(repaired == """
            SELECT T2.Name FROM Track AS T1 JOIN Album ON T1.AlbumId = Album.AlbumId \
            INNER JOIN Artist AS T2 ON Album.ArtistId = T2.ArtistId WHERE T1.Name = 'Fast As a Shark'
            """)
        #expect(try await Self.rows(repaired) == [["Accept"]])
    }

    @Test("a column of a table one key away, outside the statement: that table is joined at the end of the FROM clause")
    func missingTable() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = "SELECT T2.Name FROM Track AS T1 JOIN Album AS T2 ON T1.AlbumId = T2.AlbumId WHERE T1.Name = 'Fast As a Shark'"
        let repaired = try #require(JoinBridgeRepair().applied(to: sql, error: "no such column: T2.Name", schema: schema))
        #expect(repaired == """
            SELECT Artist.Name FROM Track AS T1 JOIN Album AS T2 ON T1.AlbumId = T2.AlbumId \
            JOIN Artist ON T2.ArtistId = Artist.ArtistId WHERE T1.Name = 'Fast As a Shark'
            """)
        #expect(try await Self.rows(repaired) == [["Accept"]])

        let atEnd = try #require(JoinBridgeRepair().applied(to: 
            "SELECT i.Total, i.FirstName FROM Invoice i", error: "no such column: i.FirstName", schema: schema))
        #expect(atEnd == "SELECT i.Total, Customer.FirstName FROM Invoice i JOIN Customer ON i.CustomerId = Customer.CustomerId")
    }

    @Test("two keys away, through a table the statement does not name; a taken alias gets a number; LEFT joins stay LEFT")
    func twoKeys() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let repaired = try #require(JoinBridgeRepair().applied(to: 
            "SELECT Album.Title FROM Genre g LEFT JOIN Track Album ON Album.GenreId = g.GenreId WHERE Album.Title LIKE 'B%'",
            error: "no such column: Album.Title", schema: schema))
        #expect(repaired == """
            SELECT Album2.Title FROM Genre g LEFT JOIN Track Album ON Album.GenreId = g.GenreId \
            LEFT JOIN Album AS Album2 ON Album.AlbumId = Album2.AlbumId WHERE Album2.Title LIKE 'B%'
            """)
        _ = try await Self.rows(repaired)

        let customerToEmployee = try #require(JoinBridgeRepair().applied(to: 
            "SELECT i.Total, i.HireDate FROM Invoice i", error: "no such column: i.HireDate", schema: schema))
        #expect(customerToEmployee.contains("JOIN Customer ON i.CustomerId = Customer.CustomerId JOIN Employee ON Customer.SupportRepId = Employee.EmployeeId"))
        _ = try await Self.rows(customerToEmployee)
    }

    @Test("no repair when two tables are equally near, another table of the statement is nearer, none is near enough, the column exists, or the error is another")
    func refused() async throws {
        let schema = try await TestDatabase.chinookSchema()
        // Artist and Track are both one key from Album and both have a Name.
        #expect(JoinBridgeRepair().applied(to: "SELECT a.Name FROM Album a", error: "no such column: a.Name", schema: schema) == nil)
        // Invoice is one key from Customer but two from Employee, through Customer: T2 is the wrong table.
        #expect(JoinBridgeRepair().applied(to: 
            "SELECT T1.FirstName, COUNT(T2.InvoiceId) FROM Customer T1 JOIN Employee T2 ON T1.SupportRepId = T2.EmployeeId GROUP BY T1.CustomerId",
            error: "no such column: T2.InvoiceId", schema: schema) == nil)
        #expect(JoinBridgeRepair().applied(to: "SELECT g.Email FROM Genre g", error: "no such column: g.Email", schema: schema) == nil)
        #expect(JoinBridgeRepair().applied(to: "SELECT t.Name FROM Track t", error: "no such column: t.Name", schema: schema) == nil)
        #expect(JoinBridgeRepair().applied(to: "SELECT x FROM Track", error: "no such column: x", schema: schema) == nil)
        #expect(JoinBridgeRepair().applied(to: "SELECT * FROM Nowhere", error: "no such table: Nowhere", schema: schema) == nil)
    }

    @Test("the engine joins the missing table without asking the model again")
    func inEngine() async throws {
        let model = ScriptedModel([
            .text("SELECT T2.Name FROM Track AS T1 INNER JOIN Artist AS T2 ON T1.ArtistId = T2.ArtistId WHERE T1.Name = 'Fast As a Shark'")
        ])
        let executor = try TestDatabase.chinook()
        let engine = ChatEngine(executor: executor, model: model, configuration: ChatEngineTests.noSummary.oneCandidate)
        let response = try await engine.send("Who made 'Fast As a Shark'?")
        #expect(response.queryResult?.rows == [["Accept"]])
        #expect(response.sql.contains("JOIN Album ON T1.AlbumId = Album.AlbumId"))
        #expect(model.requests.count == 1)
    }

    @Test("three mistakes in one statement are repaired one after the other, without asking the model again")
    func chained() async throws {
        // T2.Milliseconds: the wrong alias; T1.ArtistId: Album skipped; YEAR(): MySQL.
        let model = ScriptedModel([
            .text("""
                SELECT T2.Name, T2.Milliseconds FROM Track AS T1 JOIN Artist AS T2 ON T1.ArtistId = T2.ArtistId \
                JOIN InvoiceLine l ON l.TrackId = T1.TrackId JOIN Invoice i ON i.InvoiceId = l.InvoiceId \
                WHERE YEAR(i.InvoiceDate) = 2024 ORDER BY T2.Name LIMIT 3
                """)
        ])
        let engine = ChatEngine(executor: try TestDatabase.chinook(), model: model, configuration: ChatEngineTests.noSummary.oneCandidate)
        let response = try await engine.send("Which artists sold in 2024, with track lengths?")
        #expect(response.sql.contains("T1.Milliseconds"))
        #expect(response.sql.contains("JOIN Album ON T1.AlbumId = Album.AlbumId"))
        #expect(response.sql.contains("CAST(strftime('%Y', i.InvoiceDate) AS INTEGER) = 2024"))
        #expect(response.queryResult?.rowCount == 3)
        #expect(model.requests.count == 1)
        #expect(ChatEngine.maxRepairs == 3)
    }

    @Test("a bare column of a table the only table refers to is joined in; not through a table that refers to it")
    func bareColumn() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = "SELECT Name FROM Track WHERE Title = 'Facelift'"
        let repaired = try #require(JoinBridgeRepair().applied(to: 
            sql, error: "SQLite cannot compile the statement: no such column: Title.", schema: schema))
        #expect(repaired == "SELECT Name FROM Track JOIN Album ON Track.AlbumId = Album.AlbumId WHERE Album.Title = 'Facelift'")
        #expect(try await TestDatabase.chinook().query(repaired).rowCount == 12)
        #expect(SQLiteFailure(message: "no such column: T1.Title").missingBareColumn == nil)
        for (sql, error) in [
            ("SELECT COUNT(*) FROM Album WHERE Milliseconds > 1000", "no such column: Milliseconds."),
            ("SELECT Name FROM Track t JOIN Genre g ON g.GenreId = t.GenreId WHERE Title = 'x'", "no such column: Title"),
            ("SELECT Name FROM Track WHERE Nonexistent = 1", "no such column: Nonexistent"),
        ] {
            #expect(JoinBridgeRepair().applied(to: sql, error: error, schema: schema) == nil, "\(sql)")
        }
    }
}

