import SwiftDBAI
import SwiftDBAIChat

/// A tool call that failed for a reason the caller can fix: returned as a tool result with
/// `isError: true` and this message, never as a protocol error.
struct ToolCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened and what to change.
    var message: String
    /// A stable reason for programs (`invalid_sql`, `operation_not_allowed`, …), when known.
    var code: SwiftDBAIError.Code?

    init(_ message: String, code: SwiftDBAIError.Code? = nil) {
        self.message = message
        self.code = code
    }

    /// The message and stable code (``SwiftDBAIError/code``) of a library error. Where the
    /// remedy is a server setting, the message names the `dbai-mcp` option.
    init(_ error: SwiftDBAIError) {
        self.init(Self.message(for: error), code: error.code)
    }

    /// The message and stable code (``ChatError/code``) of an `ask` failure.
    init(_ error: ChatError) {
        if case .database(let databaseError) = error {
            self.init(databaseError)
        } else {
            self.init(error.description, code: error.code)
        }
    }

    private static func message(for error: SwiftDBAIError) -> String {
        switch error {
        case .timeout:
            return error.description + " (server limit: --timeout-ms)"
        case .valueTooLarge(let limit):
            return "A string or blob in this statement (a stored value, or one the statement builds) exceeds \(limit) bytes, "
                + "the largest value allowed; nothing was changed. Leave that value out, or restart dbai-mcp with a larger --max-value-bytes."
        case .outOfMemory:
            return "SQLite reached its memory limit while running the statement; nothing was changed. Narrow the statement "
                + "(fewer rows, smaller values, less sorting), or restart dbai-mcp with a larger --sqlite-memory-mb."
        default:
            return error.description
        }
    }

    var description: String { message }
}

extension SwiftDBAIError.Code {
    /// A `confirm` token that is unknown, used, expired, or issued for another write.
    static let invalidConfirmationToken = Self(rawValue: "invalid_confirmation_token")
    /// `ask` without a language model (no `--llm`, and a client that does not sample).
    static let noLanguageModel = Self(rawValue: "no_language_model")
    /// A failure the server did not expect (a bug): the message says what it was.
    static let internalError = Self(rawValue: "internal_error")
}

extension SwiftDBAIError.Code {
    /// An export that could not be written to `--export-dir` (a full disk, a permission).
    static let exportFailed = Self(rawValue: "export_failed")
}

extension ToolCallError {
    /// A file name refused by `--export-dir` (`invalid_arguments`), or a file that could not be
    /// written there (`export_failed`).
    init(_ refusal: ExportDirectory.Refusal) {
        self.init(
            refusal.description + "; nothing was written.",
            code: refusal.kind == .failed ? .exportFailed : .invalidArguments)
    }
}
