import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Linking a question to the schema")
struct SchemaLinkerTests {
    static func chinook() async throws -> (SQLExecutor, DatabaseSchema) {
        let executor = try SQLExecutor(path: TestDatabase.samplePath("chinook.sqlite"))
        return (executor, try await executor.schema())
    }

    static func link(_ question: String) async throws -> SchemaLinker.Link {
        let (executor, schema) = try await chinook()
        let found = try await executor.findValues(SchemaLinker.candidateValues(in: question), in: schema)
        return SchemaLinker(schema: schema).link(question, foundValues: found)
    }

    @Test("identifier and question words compare equal across case, underscores and plurals")
    func words() {
        #expect(NameWords.ofIdentifier("SupportRepId") == ["support", "rep", "id"])
        #expect(NameWords.ofIdentifier("invoice_lines") == ["invoice", "line"])
        #expect(NameWords.ofIdentifier("MediaType2") == ["media", "type2"])
        #expect(NameWords.ofText("Which countries' invoice lines?") == ["which", "country", "invoice", "line"])
        #expect(NameWords.stem("addresses") == "address")
        #expect(NameWords.stem("status") == "status")
    }

    @Test("quoted text and capitalised runs are candidate values; an apostrophe inside a word is not a quote")
    func candidates() {
        #expect(SchemaLinker.candidateValues(in: "List all albums by AC/DC.") == ["AC/DC"])
        #expect(SchemaLinker.candidateValues(in: "Who reports to Andrew Adams? Give names.") == ["Andrew Adams", "Give"])
        #expect(SchemaLinker.candidateValues(in: "The country's customers who bought \"Let There Be Rock\"") == ["Let There Be Rock"])
        #expect(SchemaLinker.candidateValues(in: "how many tracks are there") == [])
    }

    @Test("a quoted track name is found in Track.Name and the path from Artist to Track goes through Album")
    func joinThroughAlbum() async throws {
        let link = try await Self.link("Who is the artist of the song 'Fast As a Shark'?")
        #expect(link.values.map { "\($0.table).\($0.column)" } == ["Track.Name"])
        #expect(link.joins.map(\.description) == ["Album.ArtistId = Artist.ArtistId", "Track.AlbumId = Album.AlbumId"])
        #expect(Set(link.tables) == ["Artist", "Track", "Album"])
        #expect(link.hints == [
            "'Fast As a Shark' is a value of Track.Name.",
            "Join: Album.ArtistId = Artist.ArtistId, Track.AlbumId = Album.AlbumId.",
        ])
    }

    @Test("a value stored in several tables keeps the table named just before it, in its stored case")
    func valuePlaces() async throws {
        let link = try await Self.link("How long is the album 'let there be rock' in total?")
        #expect(link.values.map { "\($0.table).\($0.column)=\($0.value)" } == ["Album.Title=Let There Be Rock"])
    }

    @Test("a foreign-key column named in words links its table; a long chain is joined in order")
    func referencesAndChains() async throws {
        let reps = try await Self.link("Count the customers of every support rep")
        #expect(reps.references.map(\.description) == ["Customer.SupportRepId = Employee.EmployeeId"])
        #expect(reps.hints.contains("Customer.SupportRepId refers to Employee.EmployeeId."))

        let jazz = try await Self.link("Which customers bought Jazz invoice lines?")
        #expect(jazz.hints.first == "'Jazz' is a value of Genre.Name.")
        #expect(jazz.joins.map(\.description) == [
            "Invoice.CustomerId = Customer.CustomerId", "InvoiceLine.InvoiceId = Invoice.InvoiceId",
            "InvoiceLine.TrackId = Track.TrackId", "Track.GenreId = Genre.GenreId",
        ])
    }

    @Test("a question that names nothing links nothing")
    func nothing() async throws {
        let link = try await Self.link("what is the meaning of life")
        #expect(link.tables.isEmpty && link.hints.isEmpty)
    }

    @Test("the value search reads only text columns of the tables it is given and stops at its budget")
    func valueSearch() async throws {
        let (executor, schema) = try await Self.chinook()
        let restricted = schema.restricted(to: ["Artist"])
        #expect(try await executor.findValues(["AC/DC"], in: restricted).map(\.column) == ["Name"])
        #expect(try await executor.findValues(["1"], in: restricted).isEmpty, "ArtistId is an INTEGER column")
        #expect(try await executor.findValues(["AC/DC"], in: schema, budget: .zero).isEmpty)
    }

    @Test("tables no foreign key reaches are left out of the joins")
    func unreachable() async throws {
        let schema = try await TestDatabase.schema("""
            CREATE TABLE a(id INTEGER PRIMARY KEY);
            CREATE TABLE b(id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id));
            CREATE TABLE c(id INTEGER PRIMARY KEY);
            """)
        #expect(JoinPath.connecting(["a", "c", "b"], in: schema).map(\.description) == ["b.a_id = a.id"])
    }
}
