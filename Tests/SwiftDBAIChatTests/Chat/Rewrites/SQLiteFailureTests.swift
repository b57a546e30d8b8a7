import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat

@Suite("SQLiteFailure: SQLite's error read once, into what the repairs and the retry use")
struct SQLiteFailureTests {
    @Test("the kind of an error SQLite reports as SQLITE_ERROR comes from its message", arguments: [
        ("SQLite cannot compile the statement: no such table: members", SQLiteFailure.Kind.noSuchTable),
        ("no such column: T2.Country", .noSuchColumn),
        ("SQLite cannot compile the statement: no such function: YEAR.", .noSuchFunction),
        (#"near "Order": syntax error"#, .syntaxError),
        ("UNIQUE constraint failed: t.id", .other),
    ])
    func kinds(message: String, kind: SQLiteFailure.Kind) {
        #expect(SQLiteFailure(message: message).kind == kind)
    }

    @Test("a missing table or column: as one plain word, qualified, and its last part unquoted")
    func names() throws {
        let table = SQLiteFailure(message: "SQLite cannot compile the statement: no such table: members.")
        #expect(table.missingBareTable == "members" && table.missingBareColumn == nil)
        #expect(table.missingNameLastPart == "members")

        let qualified = SQLiteFailure(message: "no such column: T2.Country")
        let (qualifier, column) = try #require(qualified.missingQualifiedColumn)
        #expect(qualifier == "T2" && column == "Country")
        #expect(qualified.missingBareColumn == nil, "A.C is not a bare name")
        #expect(qualified.missingNameLastPart == "Country")

        let bare = SQLiteFailure(message: "no such column: member_id")
        #expect(bare.missingBareColumn == "member_id" && bare.missingQualifiedColumn == nil && bare.missingBareTable == nil)

        let quoted = SQLiteFailure(message: #"no such table: "Order"#)
        #expect(quoted.missingBareTable == nil && quoted.missingNameLastPart == "Order")

        let other = SQLiteFailure(message: "no such function: YEAR")
        #expect(other.missingName == nil && other.missingNameLastPart == nil && other.missingQualifiedColumn == nil)
    }

    @Test("an error SQLite returned while running keeps its result code; one refused at compile time has none")
    func resultCodes() {
        let running = SQLiteFailure(SwiftDBAIError.sqlite(code: 2067, message: "UNIQUE constraint failed: t.id"))
        #expect(running.resultCode == 2067 && running.kind == .other)
        let compiling = SQLiteFailure(SwiftDBAIError.rejected(SQLRejection(.invalidSQL, "SQLite cannot compile the statement: no such column: x")))
        #expect(compiling.resultCode == nil && compiling.kind == .noSuchColumn && compiling.missingBareColumn == "x")
    }
}
