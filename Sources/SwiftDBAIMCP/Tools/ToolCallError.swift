import SwiftDBAI

/// A tool call that failed for a reason the caller can fix: returned as a tool result with
/// `isError: true` and this message, never as a protocol error.
struct ToolCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened and what to change.
    var message: String
    /// A stable reason for programs (`invalid_sql`, `operation_not_allowed`, …), when known.
    var code: String?

    init(_ message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }

    /// The message and code of a library error.
    init(_ error: SwiftDBAIError) {
        switch error {
        case .rejected(let rejection):
            self.init(rejection.message, code: rejection.code.rawValue)
        case .timeout:
            self.init(error.description + " (server limit: --timeout-ms)", code: "timeout")
        case .valueTooLarge(let limit):
            self.init(
                "A string or blob in this statement (a stored value, or one the statement builds) exceeds \(limit) bytes, "
                    + "the largest value allowed; nothing was changed. Leave that value out, or restart dbai-mcp with a larger --max-value-bytes.",
                code: "value_too_large")
        case .outOfMemory:
            self.init(
                "SQLite reached its memory limit while running the statement; nothing was changed. Narrow the statement "
                    + "(fewer rows, smaller values, less sorting), or restart dbai-mcp with a larger --sqlite-memory-mb.",
                code: "out_of_memory")
        case .hotJournal:
            self.init(error.description, code: "database_unavailable")
        case .changedSincePreview:
            self.init(error.description, code: "changed_since_preview")
        case .databaseBusy:
            self.init(error.description, code: "database_busy")
        case .unknownTable:
            self.init(error.description, code: "unknown_table")
        case .unknownColumn:
            self.init(error.description, code: "unknown_column")
        case .sqlite:
            self.init(error.description, code: "sqlite_error")
        case .confirmationDeclined:
            self.init(error.description, code: "confirmation_declined")
        case .confirmationRequired:
            self.init(error.description, code: "confirmation_required")
        case .invalidRequest:
            self.init(error.description, code: "invalid_arguments")
        case .cancelled:
            self.init(error.description, code: "cancelled")
        case .fileNotFound, .notADatabase, .emptyDatabase, .cannotOpen:
            self.init(error.description, code: "database_unavailable")
        }
    }

    var description: String { message }
}
