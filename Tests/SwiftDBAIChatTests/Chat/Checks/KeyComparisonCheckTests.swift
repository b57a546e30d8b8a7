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

@Suite("Joins on keys of different tables, mended along the foreign keys")
struct KeyJoinCorrectionTests {
    @Test("the one foreign key that links the two tables replaces the wrong key")
    func substituted() async throws {
        let schema = try await TestDatabase.chinookSchema()
        let executor = try TestDatabase.chinook()
        let sql = "SELECT ar.Name, COUNT(*) FROM Artist ar JOIN Album al ON ar.ArtistId = al.AlbumId GROUP BY ar.ArtistId"
        let mended = try #require(KeyJoinCorrection().applied(to: sql, schema: schema))
        #expect(mended == "SELECT ar.Name, COUNT(*) FROM Artist ar JOIN Album al ON ar.ArtistId = al.ArtistId GROUP BY ar.ArtistId")
        #expect(try await executor.query(mended).rowCount == 204)
        #expect(KeyComparisonCheck.findings(in: ParsedStatement(mended, schema: schema), schema: schema).isEmpty)
    }

    @Test("a table outside the statement that links the two sides is joined between them")
    func bridged() async throws {
        let (executor, schema, _, _) = try await ShopDatabase.fixture()
        let sql = "SELECT c.name, COUNT(*) FROM customers AS c JOIN order_items AS i ON c.id = i.order_id GROUP BY c.id"
        let mended = try #require(KeyJoinCorrection().applied(to: sql, schema: schema))
        #expect(mended == "SELECT c.name, COUNT(*) FROM customers AS c JOIN orders ON orders.customer_id = c.id JOIN order_items AS i ON orders.id = i.order_id GROUP BY c.id")
        #expect(try await executor.query(mended).rows.map { [$0[0], $0[1]] } == [[.text("Ada"), 3], [.text("Ben"), 1]])
        let reversed = try #require(KeyJoinCorrection().applied(to: 
            "SELECT p.name FROM order_items AS i JOIN customers AS c ON i.order_id = c.id JOIN products p ON p.id = i.product_id", schema: schema))
        #expect(reversed == "SELECT p.name FROM order_items AS i JOIN orders ON orders.id = i.order_id JOIN customers AS c ON orders.customer_id = c.id JOIN products p ON p.id = i.product_id")
        #expect(try await executor.query(reversed).rowCount == 4)
    }

    @Test("left alone: keys of one table, two candidate keys, a linking table already in the statement, non-key columns, writes")
    func leftAlone() async throws {
        let schema = try await TestDatabase.chinookSchema()
        for sql in [
            "SELECT ar.Name FROM Artist ar JOIN Album al ON ar.ArtistId = al.ArtistId",
            "SELECT e.LastName FROM Employee e JOIN Employee m ON e.ReportsTo = m.EmployeeId",
            "SELECT t.Name FROM Track t JOIN Album al ON al.AlbumId = t.AlbumId JOIN Artist ar ON ar.ArtistId = t.TrackId",
            "SELECT t.Name FROM Track t JOIN Genre g ON g.Name = t.Name",
            "SELECT t.Name FROM Track t JOIN Genre g ON g.GenreId = t.GenreId AND g.GenreId = t.TrackId",
            "DELETE FROM Album WHERE AlbumId IN (SELECT ArtistId FROM Artist)",
            "SELECT a.Title FROM Album a, Artist r WHERE a.AlbumId = r.ArtistId",
        ] {
            #expect(KeyJoinCorrection().applied(to: sql, schema: schema) == nil, "\(sql)")
        }
    }
}
