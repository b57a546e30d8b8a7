import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Column comments in CREATE TABLE")
struct ColumnCommentParserTests {
    @Test("a comment inside a definition or after its comma on the same line describes that column")
    func trailingComments() {
        let sql = """
            CREATE TABLE "Album" (
                "AlbumId" INTEGER PRIMARY KEY,
                "Title" TEXT NOT NULL, -- as printed on the cover
                "ArtistId" INTEGER -- the first artist credited
                    REFERENCES "Artist"("ArtistId"),
                Year INTEGER /* of release */
            )
            """
        #expect(ColumnCommentParser.descriptions(inCreateTable: sql) == [
            "Title": "as printed on the cover", "ArtistId": "the first artist credited", "Year": "of release",
        ])
    }

    @Test("comments on lines of their own describe the column that follows")
    func leadingComments() {
        let sql = """
            CREATE TABLE t (
                -- the key
                id INTEGER PRIMARY KEY,
                /* a long
                   description */
                body TEXT
            )
            """
        #expect(ColumnCommentParser.descriptions(inCreateTable: sql) == ["id": "the key", "body": "a long description"])
    }

    @Test("quoted names, string literals and nested parentheses are not mistaken for comments or commas")
    func quoting() {
        let sql = """
            CREATE TABLE [odd ( table] (
                "a, ""b"" -- c" TEXT DEFAULT '-- not, a comment', -- the real one
                `d` NUMERIC(10, 2) CHECK (d > 0 AND d < 'x,y'), -- money
                [e] TEXT,
                CONSTRAINT pk PRIMARY KEY (d) -- a table constraint
            )
            """
        #expect(ColumnCommentParser.descriptions(inCreateTable: sql) == [
            "a, \"b\" -- c": "the real one", "d": "money",
        ])
    }

    @Test("a statement without comments, or CREATE TABLE AS, has no descriptions; unfinished text does not trap")
    func nothing() {
        #expect(ColumnCommentParser.descriptions(inCreateTable: "CREATE TABLE t(a, b)").isEmpty)
        #expect(ColumnCommentParser.descriptions(inCreateTable: "CREATE TABLE t AS SELECT 1 -- x").isEmpty)
        #expect(ColumnCommentParser.descriptions(inCreateTable: "CREATE TABLE t(a -- unterminated") == ["a": "unterminated"])
        #expect(ColumnCommentParser.descriptions(inCreateTable: "").isEmpty)
    }
}
