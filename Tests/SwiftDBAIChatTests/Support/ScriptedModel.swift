import Foundation
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// A language model that answers from a script, in order, and records every request.
final class ScriptedModel: LanguageModel, @unchecked Sendable {
    enum Step {
        case text(String)
        case toolCall(sql: String)
        case failure(LanguageModelError)
    }

    let name = "scripted"
    let capabilities: LanguageModelCapabilities
    private let lock = NSLock()
    private var steps: [Step]
    private var recorded: [LanguageModelRequest] = []
    /// Answers once the script is used up (nil: an unparseable-response error).
    private let fallback: Step?
    /// The usage every answer reports.
    private let usage: TokenUsage?

    init(_ steps: [Step], capabilities: LanguageModelCapabilities = .textOnly, fallback: Step? = nil, usage: TokenUsage? = nil) {
        self.steps = steps
        self.capabilities = capabilities
        self.fallback = fallback
        self.usage = usage
    }

    var requests: [LanguageModelRequest] { lock.withLock { recorded } }

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let step: Step? = lock.withLock {
            recorded.append(request)
            return steps.isEmpty ? fallback : steps.removeFirst()
        }
        switch step {
        case .text(let text):
            return LanguageModelResponse(text: text, usage: usage)
        case .toolCall(let sql):
            let arguments = JSONValue.object(["sql": .string(sql)]).jsonText
            return LanguageModelResponse(
                text: "", toolCalls: [LanguageModelToolCall(id: "call_1", name: "run_sql", arguments: arguments)], usage: usage)
        case .failure(let error):
            throw error
        case nil:
            throw .unparseableResponse(provider: name, reason: "the script is used up")
        }
    }
}

extension ChatConfiguration {
    /// The configuration with one statement per question: no other candidate is written, so a
    /// script answers exactly the requests a test lists (``ChatEngineCandidatesTests`` tests the vote).
    var oneCandidate: ChatConfiguration {
        var configuration = self
        configuration.candidates = 1
        return configuration
    }
}
