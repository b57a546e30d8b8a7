import MCP
import SwiftDBAI
import SwiftDBAIChat

/// The connected client's own model, asked through MCP sampling (`sampling/createMessage`).
///
/// Used by `ask` when the server has no `--llm` and the client declared sampling. Plain text
/// only: system messages become the system prompt, tool messages become user text.
struct SamplingLanguageModel: LanguageModel {
    let name = "sampling"
    let capabilities = LanguageModelCapabilities.textOnly
    /// The server that talks to the client; weak so a stopped server is not kept alive.
    weak var server: Server?
    /// How long the client's model may take to answer one request (`--llm-timeout`).
    var timeout: Duration = .seconds(60)

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        guard let server else { throw .unreachable(provider: name, reason: "the MCP server stopped") }
        let system = request.messages.filter { $0.role == .system }.map(\.content).joined(separator: "\n\n")
        let messages: [Sampling.Message] = request.messages.compactMap { message in
            switch message.role {
            case .system: nil
            case .assistant:
                .assistant(.text(message.content.isEmpty ? Self.describe(message.toolCalls) : message.content))
            case .user, .tool:
                .user(.text(message.content))
            }
        }
        do {
            // A client that never answers must not hold `ask` forever, nor ignore a cancellation.
            // A request's longer first timeout is not granted: a client that never answers must not hold
            // `ask` for minutes. A shorter one is.
            let result = try await firstOutcome(within: min(request.timeout ?? timeout, timeout)) { [request] in
                try await server.requestSampling(
                    messages: messages, systemPrompt: system.isEmpty ? nil : system,
                    includeContext: Sampling.ContextInclusion.none,
                    temperature: request.options.temperature, maxTokens: request.options.maxTokens ?? 512,
                    stopSequences: request.options.stop.isEmpty ? nil : request.options.stop)
            }
            let text = result.content.asArray.compactMap { block -> String? in
                if case .text(let text) = block { return text }
                return nil
            }.joined(separator: "\n")
            return LanguageModelResponse(text: text, finishReason: result.stopReason?.rawValue)
        } catch is CancellationError {
            throw .cancelled
        } catch let error as TimeLimitExceeded {
            throw .timeout(provider: "the client's model (sampling)", seconds: Double(error.limit.components.seconds))
        } catch let error as MCPError {
            throw .refused(provider: "the client's model (sampling)", reason: error.localizedDescription)
        } catch {
            throw .unreachable(provider: "the client's model (sampling)", reason: "\(error)")
        }
    }

    private static func describe(_ calls: [LanguageModelToolCall]) -> String {
        calls.map { "\($0.name)(\($0.arguments))" }.joined(separator: "\n")
    }
}
