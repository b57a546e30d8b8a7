import Testing
import SwiftDBAI
@testable import SwiftDBAIChat

@Suite("ChatError codes")
struct ChatErrorCodeTests {
    @Test("a chat error's code says what failed; a failed schema read keeps the database error's code", arguments: [
        (ChatError.emptyQuestion, "invalid_arguments"),
        (.model(.timeout(provider: "p", seconds: 1)), "model_error"),
        (.model(.cancelled), "cancelled"),
        (.noSQL(attempts: 2), "no_sql"),
        (.database(.databaseBusy(message: "m")), "database_busy"),
        (.refused(sql: "DELETE FROM t", error: .rejected(SQLRejection(.operationNotAllowed, "no"))), "refused"),
        (.refused(sql: "SELECT 1", error: .cancelled), "cancelled"),
        (.failed(sql: "SELECT x", error: .sqlite(code: 1, message: "m"), attempts: 3), "sql_failed"),
    ])
    func chatErrorCodes(error: ChatError, code: String) {
        #expect(error.code.rawValue == code)
    }

    @Test("a failed schema read is reported as a database error, not as a refused statement")
    func schemaReadFailure() {
        let error = ChatError.database(.hotJournal(path: "/x.sqlite"))
        #expect(error.description == SwiftDBAIError.hotJournal(path: "/x.sqlite").description)
        #expect(!error.description.contains("SQL:"))
    }
}
