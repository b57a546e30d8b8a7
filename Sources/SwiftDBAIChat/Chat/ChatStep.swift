import SwiftDBAI

/// What a ``ChatEngine`` is doing while it answers a question, for progress reports.
public enum ChatStep: Sendable, Hashable, CustomStringConvertible {
    /// The model is writing SQL. `readingPrompt`: it has not read this system prompt before, so
    /// it reads the schema first (a minute or more for a large schema on a local CPU model).
    case writingSQL(attempt: Int, readingPrompt: Bool)
    /// The statement runs.
    case runningSQL(attempt: Int)
    /// The model is writing another candidate statement, `number` of `of`, to check the answer
    /// by a vote (``ChatConfiguration/candidates``).
    case writingCandidate(number: Int, of: Int)
    /// The model is summarizing the result.
    case summarizing

    public var description: String {
        switch self {
        case .writingSQL(let attempt, let readingPrompt):
            let what = readingPrompt
                ? "the language model is reading the schema for the first time and writing SQL"
                : "the language model is writing SQL"
            return attempt > 1 ? "\(what) (attempt \(attempt))" : what
        case .runningSQL(let attempt):
            return attempt > 1 ? "running the SQL (attempt \(attempt))" : "running the SQL"
        case .writingCandidate(let number, let total):
            return "the language model is writing candidate \(number) of \(total) to check the answer"
        case .summarizing:
            return "the language model is summarizing the result"
        }
    }
}
