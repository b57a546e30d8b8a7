import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Grouping by the row a name stands for")
struct EntityGroupingTests {
    @Test("a name of the table the others refer to gets its key in front; different rows with one name stay apart")
    func keyAdded() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let sql = """
            SELECT T1.Name, SUM(T2.Quantity) FROM Track AS T1 JOIN InvoiceLine AS T2 ON T1.TrackId = T2.TrackId \
            GROUP BY T1.Name ORDER BY SUM(T2.Quantity) DESC LIMIT 1
            """
        let rewritten = try #require(EntityGrouping().applied(to: sql, schema: schema))
        #expect(rewritten == sql.replacingOccurrences(of: "GROUP BY T1.Name", with: "GROUP BY T1.TrackId, T1.Name"))
        let executor = try TestDatabase.chinook()
        // Five tracks are called "The Trooper": grouped by name they add up to 5, each alone has at most 2.
        #expect(try await executor.query(sql).rows.first?[1] == 5)
        #expect(try await executor.query(rewritten).rows.first?[1] == 2)

        let people = "SELECT c.FirstName, c.LastName, SUM(i.Total) FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId GROUP BY FirstName, c.LastName"
        #expect(EntityGrouping().applied(to: people, schema: schema)
                == people.replacingOccurrences(of: "GROUP BY FirstName", with: "GROUP BY c.CustomerId, FirstName"))
        let unaliased = "SELECT Artist.Name, COUNT(*) FROM Album JOIN Artist ON Album.ArtistId = Artist.ArtistId GROUP BY Artist.Name HAVING COUNT(*) > 3"
        #expect(EntityGrouping().applied(to: unaliased, schema: schema)?.contains("GROUP BY Artist.ArtistId, Artist.Name HAVING") == true)
    }

    @Test("left alone: one table, a name of the referring table, a column not shown, non-name columns, expressions, subqueries")
    func leftAlone() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let unchanged = [
            "SELECT FirstName, COUNT(*) FROM Customer GROUP BY FirstName",
            "SELECT T2.Name FROM Genre AS T1 JOIN Track AS T2 ON T1.GenreId = T2.GenreId GROUP BY T2.Name ORDER BY COUNT(*) DESC",
            "SELECT COUNT(*) FROM Track t JOIN InvoiceLine l ON l.TrackId = t.TrackId GROUP BY t.Name",
            "SELECT c.City, COUNT(*) FROM Customer c JOIN Invoice i ON i.CustomerId = c.CustomerId GROUP BY c.City",
            "SELECT t.Name, COUNT(*) FROM Track t JOIN InvoiceLine l ON l.TrackId = t.TrackId GROUP BY lower(t.Name)",
            "SELECT t.Name, a.Title FROM Track t JOIN Album a ON a.AlbumId = t.AlbumId GROUP BY t.Name, a.Title",
            "SELECT * FROM (SELECT t.Name, COUNT(*) FROM Track t JOIN InvoiceLine l ON l.TrackId = t.TrackId GROUP BY t.Name)",
            "WITH x AS (SELECT 1) SELECT t.Name FROM Track t JOIN InvoiceLine l ON l.TrackId = t.TrackId GROUP BY t.Name",
            "UPDATE Track SET Name = Name",
        ]
        for sql in unchanged {
            #expect(EntityGrouping().applied(to: sql, schema: schema) == nil, "\(sql)")
        }
    }

    @Test("a unique name is left alone")
    func unique() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
            CREATE TABLE player(id INTEGER PRIMARY KEY, team_id INTEGER REFERENCES team(id));
            """)
        #expect(EntityGrouping().applied(to: "SELECT t.name, COUNT(*) FROM team t JOIN player p ON p.team_id = t.id GROUP BY t.name", schema: schema) == nil)
    }

    @Test("the engine runs the grouped statement")
    func inEngine() async throws {
        let model = ScriptedModel([
            .text("SELECT T1.Name FROM Track AS T1 INNER JOIN InvoiceLine AS T2 ON T1.TrackId = T2.TrackId GROUP BY T1.Name ORDER BY SUM(T2.Quantity) DESC LIMIT 1"),
            .text("SELECT t.Name FROM Track t JOIN InvoiceLine l ON l.TrackId = t.TrackId GROUP BY t.TrackId ORDER BY SUM(l.Quantity) DESC LIMIT 1"),
        ])
        let engine = ChatEngine(
            executor: try TestDatabase.chinook(), model: model, configuration: ChatEngineTests.noSummary)
        let response = try await engine.send("Which track was purchased the most times?")
        #expect(response.sql.contains("GROUP BY t.TrackId") && response.rewrites.isEmpty)
        #expect(response.lookedAgainFor.first?.hasPrefix("It groups by a name") == true)
        #expect(response.queryResult?.rows != [["The Trooper"]])
    }
}
