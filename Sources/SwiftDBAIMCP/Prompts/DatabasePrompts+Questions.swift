import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIMCPKernel

extension DatabasePrompts {
    /// The database's suggested questions (``QuestionSuggestions``).
    ///
    /// - Throws: `ProtocolError.internalError` when the schema cannot be read.
    func suggestedQuestions() async throws -> [SuggestedQuestion] {
        try await library { () async throws(SwiftDBAIError) in
            try await suggestions.suggestions(examples: examples, executor: executor)
        }
    }

    /// `suggest_questions`: the questions, the users' examples first, for the model to offer.
    func suggestQuestions() async throws -> GetPrompt.Result {
        let questions = try await suggestedQuestions()
        let ask = naming.name(Self.ask)
        var text: String
        if questions.isEmpty {
            text = "The SQLite database \(databaseName) has no table with rows to suggest questions about. "
                + "Call \(naming.name("describe_schema")) to see what it holds."
        } else {
            let fromUsers = questions.filter { $0.source == .example }.count
            text = "Questions the data in the SQLite database \(databaseName) can answer"
                + (fromUsers > 0 ? " (the first \(fromUsers) from its users' own examples, the rest from its schema)" : " (from its schema)")
                + ":\n\n" + questions.enumerated().map { "\($0.offset + 1). \($0.element.question)" }.joined(separator: "\n")
            text += "\n\nOffer me a few of them, in your own words where it helps. Answer the one I pick with the \(ask) tool "
                + "(it writes and runs the SQL and says how sure its answer is), or with \(naming.name("query")) if \(ask) is not available."
        }
        return GetPrompt.Result(description: "Questions \(databaseName) can answer", messages: [.user(.text(text: fitted(text)))])
    }

    /// `ask`: one question, for the `ask` tool.
    func askPrompt(_ question: String) -> GetPrompt.Result {
        let text = """
            Answer this question about the data in the SQLite database \(databaseName):

            \(question)

            Call the \(naming.name(Self.ask)) tool with the question as it is. Give me its answer with the SQL that ran, and \
            say plainly when its confidence is low and what to check. If \(naming.name(Self.ask)) is not available, find the \
            tables with \(naming.name("describe_schema")) and answer with one read-only statement through \(naming.name("query")).
            """
        return GetPrompt.Result(description: Echo.clipped("Ask: \(question)", to: 200), messages: [.user(.text(text: fitted(text)))])
    }
}
