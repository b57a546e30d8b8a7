import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Stable error codes")
struct SwiftDBAIErrorCodeTests {
    @Test("every error has its documented code, and a refusal carries its rejection's code", arguments: [
        (SwiftDBAIError.fileNotFound(path: "a"), "database_unavailable"),
        (.notADatabase(path: "a"), "database_unavailable"),
        (.emptyDatabase(path: "a"), "database_unavailable"),
        (.cannotOpen(path: "a", reason: "b"), "database_unavailable"),
        (.hotJournal(path: "a"), "database_unavailable"),
        (.extensionNotLoaded(path: "a", reason: "b"), "database_unavailable"),
        (.rejected(SQLRejection(.tableNotAllowed, "no")), "table_not_allowed"),
        (.rejected(SQLRejection(.invalidSQL, "no")), "invalid_sql"),
        (.sqlite(code: 1, message: "m"), "sqlite_error"),
        (.databaseBusy(message: "m"), "database_busy"),
        (.timeout(milliseconds: 5), "timeout"),
        (.cancelled, "cancelled"),
        (.confirmationRequired(.delete, tables: ["t"]), "confirmation_required"),
        (.confirmationDeclined(.delete, tables: ["t"]), "confirmation_declined"),
        (.changedSincePreview(previewedRows: 1, rowsNow: 2), "changed_since_preview"),
        (.unknownTable("t", available: []), "unknown_table"),
        (.unknownColumn("c", table: "t", available: []), "unknown_column"),
        (.invalidRequest("m"), "invalid_arguments"),
        (.valueTooLarge(limit: 1), "value_too_large"),
        (.outOfMemory, "out_of_memory"),
        (.journalFailed("r"), "audit_log_failed"),
        (.revertRefused("r"), "revert_refused"),
    ])
    func databaseErrorCodes(error: SwiftDBAIError, code: String) {
        #expect(error.code.rawValue == code)
        #expect(error.code == SwiftDBAIError.Code(rawValue: code))
    }
}
