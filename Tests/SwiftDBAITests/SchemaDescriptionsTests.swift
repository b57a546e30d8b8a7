import Foundation
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Schema descriptions")
struct SchemaDescriptionsTests {
    @Test("metadata descriptions and DDL comments reach the schema and the prompt's DDL; metadata wins")
    func descriptionsReachTheSchema() async throws {
        try await TestDatabase.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("books.sqlite").path
            try TestDatabase.makeFile(at: path, ddl: """
                CREATE TABLE book(
                    id INTEGER PRIMARY KEY, -- the key
                    title TEXT, -- from the DDL
                    price INTEGER
                );
                CREATE VIEW cheap AS SELECT title FROM book WHERE price < 10;
                """)
            let descriptions = SchemaDescriptions(tables: [
                "BOOK": .init(description: "One row per edition\nof a book", columns: ["Title": "as printed", "price": "in cents"]),
                "cheap": .init(columns: ["title": "cheap titles"]),
            ])
            let executor = try SQLExecutor(OpenedDatabase(path: path, readOnly: true), descriptions: descriptions)
            let schema = try await executor.schema()
            let book = try #require(schema.table(named: "book"))
            #expect(book.description == "One row per edition\nof a book")
            #expect(book.columns.map(\.description) == ["the key", "as printed", "in cents"])
            #expect(try await executor.schema(includingRowCounts: true).table(named: "book")?.columns[1].description == "as printed")
            let ddl = try await executor.schemaDescription()
            #expect(ddl.contains("-- One row per edition of a book\nCREATE TABLE \"book\""))
            #expect(ddl.contains("\"id\" INTEGER PRIMARY KEY, -- the key"))
            #expect(ddl.contains("\"price\" INTEGER -- in cents\n)"))
            #expect(ddl.contains("-- \"title\": cheap titles"))
        }
    }
}
