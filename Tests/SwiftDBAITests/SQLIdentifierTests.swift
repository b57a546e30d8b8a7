import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("SQLIdentifier")
struct SQLIdentifierTests {
    @Test("quote doubles inner quotes", arguments: [
        ("Order Details", "\"Order Details\""),
        ("a\"b", "\"a\"\"b\""),
        ("[x]", "\"[x]\""),
        ("Größe", "\"Größe\""),
    ])
    func quote(name: String, expected: String) {
        #expect(SQLIdentifier.quote(name) == expected)
    }

    @Test("foldCase folds ASCII only, as SQLite does")
    func foldCase() {
        #expect(SQLIdentifier.foldCase("Album") == "album")
        #expect(SQLIdentifier.foldCase("ÄBC") == "Äbc")
        #expect(SQLIdentifier.same("ORDER details", "Order Details"))
        #expect(!SQLIdentifier.same("Ä", "ä"))
    }
}
