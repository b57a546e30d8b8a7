import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

/// The connected client's own model, asked through MCP sampling (`sampling/createMessage`).
///
/// Used by `ask` when the server has no `--llm` and the client declared sampling in
/// `initialize` (handshake era: under 2026-07-28 the server sends the client no requests).
/// Plain text only: system messages become the system prompt, tool messages become user text.
struct SamplingLanguageModel: LanguageModel {
    let name = "sampling"
    let capabilities = LanguageModelCapabilities.textOnly
    /// The conversation's link to the request it is answering (the client to ask).
    let link: ConversationLink
    /// How long the client's model may take to answer one request (`--llm-timeout`).
    var timeout: Duration = .seconds(60)

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let system = request.messages.filter { $0.role == .system }.map(\.content).joined(separator: "\n\n")
        let messages: [Value] = request.messages.compactMap { message in
            let role: String
            let text: String
            switch message.role {
            case .system: return nil
            case .assistant:
                role = "assistant"
                text = message.content.isEmpty ? Self.describe(message.toolCalls) : message.content
            case .user, .tool:
                role = "user"
                text = message.content
            }
            return ["role": .string(role), "content": ["type": "text", "text": .string(text)]]
        }
        var params: [String: Value] = [
            "messages": .array(messages), "includeContext": "none", "maxTokens": .int(request.options.maxTokens ?? 512),
        ]
        if !system.isEmpty { params["systemPrompt"] = .string(system) }
        if let temperature = request.options.temperature { params["temperature"] = .double(temperature) }
        if !request.options.stop.isEmpty { params["stopSequences"] = .array(request.options.stop.map(Value.string)) }
        do {
            // A client that never answers must not hold `ask` for minutes, nor ignore a
            // cancellation: a request's longer first timeout is not granted; a shorter one is.
            guard let peer = link.peer else { throw CancellationError() }
            let result = try await peer.request(
                "sampling/createMessage", .object(params), timeout: min(request.timeout ?? timeout, timeout))
            let object = result.objectValue
            let blocks: [Value] = switch object?["content"] {
            case .array(let array)?: array
            case let block?: [block]
            case nil: []
            }
            let text = blocks.compactMap { block -> String? in
                guard block.objectValue?["type"]?.stringValue == "text" else { return nil }
                return block.objectValue?["text"]?.stringValue
            }.joined(separator: "\n")
            return LanguageModelResponse(text: text, finishReason: object?["stopReason"]?.stringValue)
        } catch is CancellationError {
            throw .cancelled
        } catch let error as TimeLimitExceeded {
            throw .timeout(provider: "the client's model (sampling)", seconds: Double(error.limit.components.seconds))
        } catch let error as ProtocolError {
            throw .refused(provider: "the client's model (sampling)", reason: error.message)
        } catch {
            throw .unreachable(provider: "the client's model (sampling)", reason: "\(error)")
        }
    }

    private static func describe(_ calls: [LanguageModelToolCall]) -> String {
        calls.map { "\($0.name)(\($0.arguments))" }.joined(separator: "\n")
    }
}
