import SwiftDBAI

/// A statement that ran for a question, with the conversation that wrote it and what is known
/// about it so far.
struct SettledStatement: Sendable {
    /// What a statement did.
    enum Outcome: Sendable {
        case rows(QueryResult)
        case changes(MutationResult)
    }

    /// What ran.
    var sql: String
    /// What the model wrote.
    var modelSQL: String
    /// The rewrites that made ``sql`` of ``modelSQL``, in order.
    var rewrites: [AppliedRewrite]
    var outcome: Outcome
    /// The conversation up to and including the model's answer.
    var conversation: [ChatMessage]
    /// The attempt that wrote it.
    var attempts: Int
    /// How likely the model found each token of the answer that wrote it, when the provider says.
    var tokenLogprobs: [TokenLogprob]?
    /// What looks wrong in the answer, for the user to check.
    var doubts: [String] = []
    /// What looks wrong in this statement, when already looked for (nil: not yet).
    var checkedDoubts: [String]?

    var isEmptyRead: Bool {
        if case .rows(let result) = outcome { return result.rowCount == 0 }
        return false
    }

    var isRead: Bool {
        if case .rows = outcome { return true }
        return false
    }

    /// How sure the model was of the statement it wrote, when the provider says.
    var tokenCertainty: TokenCertainty? {
        TokenCertainty(tokenLogprobs, statement: modelSQL)
    }

    /// The rows, for a read.
    var rows: QueryResult? {
        if case .rows(let result) = outcome { return result }
        return nil
    }
}
