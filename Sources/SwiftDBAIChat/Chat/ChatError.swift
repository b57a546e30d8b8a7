import SwiftDBAI

/// Why a question could not be answered.
public enum ChatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The question is empty.
    case emptyQuestion
    /// The model failed (unreachable, HTTP error, timeout…).
    case model(LanguageModelError)
    /// The model did not produce a SQL statement within the attempts allowed.
    case noSQL(attempts: Int)
    /// The database could not be read (its schema, for the prompt) before the model was asked.
    case database(SwiftDBAIError)
    /// The statement the model wrote is not allowed (policy, confirmation declined or needed).
    case refused(sql: String, error: SwiftDBAIError)
    /// The statement kept failing after every retry; the last error is given.
    case failed(sql: String, error: SwiftDBAIError, attempts: Int)

    public var description: String {
        switch self {
        case .emptyQuestion:
            return "Ask a question in plain language."
        case .model(let error):
            return error.description
        case .noSQL(let attempts):
            return "The model did not write a SQL statement (\(attempts) attempt\(attempts == 1 ? "" : "s")). Rephrase the question, or name the tables and columns it is about."
        case .database(let error):
            return error.description
        case .refused(let sql, let error):
            return "The model's statement was refused: \(error.description)\nSQL: \(sql)"
        case .failed(let sql, let error, let attempts):
            return "The model's SQL still failed after \(attempts) attempts: \(error.description)\nSQL: \(sql)"
        }
    }
}
