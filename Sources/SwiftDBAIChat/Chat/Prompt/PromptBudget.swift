/// The tokens of a model's context, shared out between what every question reads (the system
/// message: instructions, schema, examples), what one question adds (its tables on a large
/// schema, examples, hints, history, a retry's feedback) and the answer.
struct PromptBudget: Sendable, Hashable {
    /// The model's context window, in tokens.
    var contextTokens: Int
    /// The most tokens one answer may take (the SQL request's `maxTokens`).
    var answerTokens: Int

    /// Tokens kept for what a question adds besides its tables and retrieved examples: the
    /// question, its hints, the conversation's earlier turns and the feedback of a retry; a
    /// quarter of a context smaller than 4,800 tokens, so that its tables keep some room.
    static let questionReserve = 1_200

    /// ``questionReserve``, or a quarter of a small context.
    var questionTokens: Int {
        min(Self.questionReserve, contextTokens / 4)
    }

    /// The tokens the system message may take, with room for a question and its answer.
    var systemTokens: Int {
        max(0, contextTokens - answerTokens - questionTokens)
    }

    /// The tokens left for a question's own tables and examples once the system message takes
    /// `system` of them.
    func perQuestionTokens(afterSystem system: Int) -> Int {
        max(0, systemTokens - system)
    }

    /// The tokens a request may still add to `messages` and keep room for its answer.
    func remaining(after messages: [ChatMessage]) -> Int {
        contextTokens - answerTokens - TokenEstimate.tokens(in: messages)
    }
}
