import Foundation
@testable import SwiftDBAI

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

    init(_ steps: [Step], capabilities: LanguageModelCapabilities = .textOnly, fallback: Step? = nil) {
        self.steps = steps
        self.capabilities = capabilities
        self.fallback = fallback
    }

    var requests: [LanguageModelRequest] { lock.withLock { recorded } }

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let step: Step? = lock.withLock {
            recorded.append(request)
            return steps.isEmpty ? fallback : steps.removeFirst()
        }
        switch step {
        case .text(let text):
            return LanguageModelResponse(text: text)
        case .toolCall(let sql):
            let arguments = JSONValue.object(["sql": .string(sql)]).jsonText
            return LanguageModelResponse(text: "", toolCalls: [LanguageModelToolCall(id: "call_1", name: "run_sql", arguments: arguments)])
        case .failure(let error):
            throw error
        case nil:
            throw .unparseableResponse(provider: name, reason: "the script is used up")
        }
    }
}
