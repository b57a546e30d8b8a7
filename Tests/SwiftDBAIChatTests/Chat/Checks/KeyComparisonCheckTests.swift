import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Keys of different tables compared")
struct KeyComparisonCheckTests {
    @Test("a join or an IN subquery that compares keys of different tables is found, with the foreign keys that link them")
    func found() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let join = KeyComparisonCheck.findings(
            in: "SELECT ar.Name, COUNT(*) FROM Artist ar JOIN Album al ON ar.ArtistId = al.AlbumId GROUP BY ar.ArtistId", schema: schema)
        #expect(join.map { [$0.left.table, $0.left.column, $0.right.table, $0.right.column] } == [["Artist", "ArtistId", "Album", "AlbumId"]])
        #expect(KeyComparisonCheck.message(for: join, schema: schema) == """
            It compares Artist.ArtistId (a key of Artist) with Album.AlbumId (a key of Album): they never name the same row.
            Foreign keys: Album.ArtistId = Artist.ArtistId.
            """)
        let subquery = KeyComparisonCheck.findings(
            in: "SELECT COUNT(*) FROM Track WHERE TrackId NOT IN (SELECT DISTINCT il.InvoiceId FROM InvoiceLine il)", schema: schema)
        #expect(subquery.map(\.right.identifies) == [["Invoice"]] && subquery.map(\.left.identifies) == [["Track"]])
    }

    @Test("left alone: keys of the same table, self references, a foreign key and its target, non-key columns, literals, odd input")
    func leftAlone() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let fine = [
            "SELECT ar.Name FROM Artist ar JOIN Album al ON ar.ArtistId = al.ArtistId",
            "SELECT COUNT(*) FROM Track WHERE TrackId NOT IN (SELECT TrackId FROM InvoiceLine)",
            "SELECT e.LastName FROM Employee e JOIN Employee m ON e.ReportsTo = m.EmployeeId",
            "SELECT c.LastName FROM Customer c JOIN Employee e ON c.SupportRepId = e.EmployeeId",
            "SELECT * FROM Album WHERE AlbumId = 5 AND ArtistId >= 3 AND Title = Title",
            "SELECT a.Title FROM Album a, Artist r WHERE a.Title = r.Name",
            "SELECT x.AlbumId = y.ArtistId FROM Album",
            "SELECT AlbumId IN (SELECT ArtistId, Name FROM Artist) FROM Album",
            "SELECT =", "= SELECT", "", "IN (SELECT",
        ]
        for sql in fine {
            #expect(KeyComparisonCheck.findings(in: ParsedStatement(sql, schema: schema), schema: schema).isEmpty, "\(sql)")
        }
    }

    @Test("a table whose key is also a foreign key identifies both tables")
    func sharedKey() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE profile(person_id INTEGER PRIMARY KEY REFERENCES person(id), bio TEXT);
            CREATE TABLE pet(id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES person(id));
            """)
        #expect(KeyComparisonCheck.findings(in: ParsedStatement("SELECT bio FROM profile p JOIN person q ON p.person_id = q.id", schema: schema), schema: schema).isEmpty)
        #expect(KeyComparisonCheck.findings(in: ParsedStatement("SELECT bio FROM profile p JOIN pet q ON p.person_id = q.owner_id", schema: schema), schema: schema).isEmpty)
        #expect(KeyComparisonCheck.findings(in: ParsedStatement("SELECT bio FROM profile p JOIN pet q ON p.person_id = q.id", schema: schema), schema: schema).count == 1)
    }
}
