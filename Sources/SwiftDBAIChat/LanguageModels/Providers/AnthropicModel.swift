import Foundation
import SwiftDBAI

/// A Claude model through the Anthropic Messages API.
///
/// Posts to `{baseURL}/v1/messages` with the key in `x-api-key` and `anthropic-version: 2023-06-01`.
/// System messages become the top-level `system`; tool calls and results become `tool_use` and
/// `tool_result` content blocks.
///
/// ```swift
/// let model = try AnthropicModel.fromEnvironment(model: "claude-sonnet-4-5", transport: .asyncHTTPClient)
/// ```
///
/// **Structured output** is emulated with a forced tool: for
/// ``ResponseFormat/jsonSchema(name:schema:)`` the request carries one more tool, named after the
/// schema, whose `input_schema` is the schema, and `tool_choice` forces it (`{"type": "tool"}`; or
/// `{"type": "any"}` when the request has tools of its own, so the model may call those instead).
/// The input the model gives that tool comes back as the response ``LanguageModelResponse/text``
/// (JSON text), not as a tool call, with finish reason `end_turn`. A schema whose root is not an
/// object is wrapped as `{"value": …}` on the way out and unwrapped on the way back, because
/// Anthropic requires object input schemas.
public struct AnthropicModel: HTTPLanguageModel, HostedLanguageModel {
    /// `https://api.anthropic.com`.
    public static let defaultBaseURL = ProviderWire.literalURL("https://api.anthropic.com")
    /// The environment variable that holds the API key.
    /// The provider's name in messages.
    public static let providerName = "Anthropic"
    public static let apiKeyVariable = "ANTHROPIC_API_KEY"
    /// The API version sent in `anthropic-version`.
    public static let apiVersion = "2023-06-01"

    /// The model name (`claude-sonnet-4-5`).
    public let model: String
    /// The base URL; requests go to `{baseURL}/v1/messages`.
    public let baseURL: URL
    /// `max_tokens` when the request's options set none (the API requires one).
    public let defaultMaxTokens: Int
    /// Tool calling and (emulated) structured output.
    public let capabilities = LanguageModelCapabilities(toolCalling: true, structuredOutput: true)
    /// `anthropic:MODEL`.
    public var name: String { "anthropic:\(model)" }

    private let apiKey: APIKey?
    private let client: HTTPModelClient

    /// Creates a Claude model.
    ///
    /// - Parameters:
    ///   - model: The model name (`claude-sonnet-4-5`).
    ///   - transport: What carries the requests: `.asyncHTTPClient` from `SwiftDBAIAsyncHTTPClient`, or
    ///     your own ``HTTPTransport``.
    ///   - apiKey: The key sent in `x-api-key`; nil sends none (for a proxy that adds it).
    ///   - baseURL: The API's base URL, without `/v1`.
    ///   - defaultMaxTokens: `max_tokens` when a request sets none (1024 by default).
    ///   - timeout: The longest one attempt may take (60 s by default).
    ///   - retryPolicy: How transient failures (including 529 overloaded) are retried.
    public init(
        model: String,
        transport: any HTTPTransport,
        apiKey: String?,
        baseURL: URL = AnthropicModel.defaultBaseURL,
        defaultMaxTokens: Int = 1024,
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .standard
    ) {
        self.model = model
        self.baseURL = baseURL
        self.defaultMaxTokens = max(1, defaultMaxTokens)
        let key = APIKey(apiKey)
        self.apiKey = key
        self.client = HTTPModelClient(provider: "Anthropic", timeout: timeout, retryPolicy: retryPolicy, secrets: [key],
            transport: transport)
    }

    /// Creates the model with the defaults of the other settings (``HostedLanguageModel``).
    public init(
        model: String, transport: any HTTPTransport, apiKey: String?, baseURL: URL, timeout: Duration,
        retryPolicy: RetryPolicy
    ) {
        self.init(
            model: model, transport: transport, apiKey: apiKey, baseURL: baseURL, defaultMaxTokens: 1024, timeout: timeout,
            retryPolicy: retryPolicy)
    }

    /// Answers one request with the Messages API.
    ///
    /// - Throws: ``LanguageModelError``; `stop_reason: refusal` is ``LanguageModelError/refused(provider:reason:)``.
    public func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let (body, structuredTool) = try requestBody(for: request)
        let endpoint = try ProviderWire.endpoint(baseURL, "v1/messages")
        var headers = ["anthropic-version": Self.apiVersion]
        if let apiKey {
            headers["x-api-key"] = apiKey.secret
        }
        let json = try await client.postJSON(to: endpoint, headers: headers, body: body, timeout: request.timeout)
        return try response(from: json, structuredTool: structuredTool)
    }

    // MARK: - Wire format

    /// The tool that carries a structured answer.
    struct StructuredTool: Sendable, Hashable {
        var name: String
        /// The schema root was not an object and is wrapped under `value`.
        var isWrapped: Bool
    }

    func requestBody(for request: LanguageModelRequest) throws(LanguageModelError) -> (JSONValue, StructuredTool?) {
        var body: [String: JSONValue] = [
            "model": .string(model),
            "max_tokens": .number(Double(request.options.maxTokens ?? defaultMaxTokens)),
        ]
        let system = request.messages.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        if !system.isEmpty {
            body["system"] = .string(system.joined(separator: "\n\n"))
        }
        body["messages"] = .array(try Self.wireMessages(request.messages))

        var tools: [JSONValue] = request.tools.map { tool in
            ["name": .string(tool.name), "description": .string(tool.description), "input_schema": tool.parameters]
        }
        var structuredTool: StructuredTool?
        if case .jsonSchema(let schemaName, let schema) = request.responseFormat {
            let toolName = Self.toolName(for: schemaName, avoiding: request.tools.map(\.name))
            let isObject = schema["type"]?.stringValue == "object"
            let inputSchema: JSONValue =
                isObject ? schema : ["type": "object", "properties": ["value": schema], "required": ["value"]]
            tools.append([
                "name": .string(toolName),
                "description": "Give your final answer as the input of this tool; it must match the schema.",
                "input_schema": inputSchema,
            ])
            body["tool_choice"] = request.tools.isEmpty ? ["type": "tool", "name": .string(toolName)] : ["type": "any"]
            structuredTool = StructuredTool(name: toolName, isWrapped: !isObject)
        }
        if !tools.isEmpty {
            body["tools"] = .array(tools)
        }
        if let temperature = request.options.temperature {
            body["temperature"] = .number(temperature)
        }
        if !request.options.stop.isEmpty {
            body["stop_sequences"] = .array(request.options.stop.map(JSONValue.string))
        }
        return (.object(body), structuredTool)
    }

    /// A tool name Anthropic accepts (`^[a-zA-Z0-9_-]{1,64}$`) that no request tool uses.
    private static func toolName(for schemaName: String, avoiding taken: [String]) -> String {
        let allowed = schemaName.map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
                ? character : "_"
        }
        var name = String(String(allowed).prefix(56))
        if name.isEmpty { name = "answer" }
        var candidate = name
        var suffix = 2
        while taken.contains(candidate) {
            candidate = "\(name)_\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Messages as Anthropic wants them: content blocks, tool results in user turns, consecutive
    /// turns of one role merged, system messages left out (they go in `system`).
    private static func wireMessages(_ messages: [ChatMessage]) throws(LanguageModelError) -> [JSONValue] {
        var turns: [(role: String, blocks: [JSONValue])] = []
        for message in messages {
            let role: String
            var blocks: [JSONValue] = []
            switch message.role {
            case .system:
                continue
            case .user:
                role = "user"
                if !message.content.isEmpty {
                    blocks.append(["type": "text", "text": .string(message.content)])
                }
            case .assistant:
                role = "assistant"
                if !message.content.isEmpty {
                    blocks.append(["type": "text", "text": .string(message.content)])
                }
                for call in message.toolCalls {
                    blocks.append([
                        "type": "tool_use", "id": .string(call.id), "name": .string(call.name),
                        "input": ProviderWire.argumentsObject(call.arguments),
                    ])
                }
            case .tool:
                role = "user"
                blocks.append([
                    "type": "tool_result", "tool_use_id": .string(try ProviderWire.callID(of: message)),
                    "content": .string(message.content),
                ])
            }
            guard !blocks.isEmpty else { continue }
            if let last = turns.last, last.role == role {
                turns[turns.count - 1].blocks += blocks
            } else {
                turns.append((role, blocks))
            }
        }
        return turns.map { turn in ["role": .string(turn.role), "content": .array(turn.blocks)] }
    }

    func response(from json: JSONValue, structuredTool: StructuredTool?) throws(LanguageModelError) -> LanguageModelResponse {
        guard let blocks = json["content"]?.arrayValue else {
            throw client.missing("content")
        }
        var finishReason = json["stop_reason"]?.stringValue
        if finishReason == "refusal" {
            throw .refused(provider: client.provider, reason: "the model declined to answer (stop_reason refusal)")
        }
        var texts: [String] = []
        var toolCalls: [LanguageModelToolCall] = []
        var structuredAnswer: String?
        for block in blocks {
            switch block["type"]?.stringValue {
            case "text":
                texts.append(block["text"]?.stringValue ?? "")
            case "tool_use":
                guard let name = block["name"]?.stringValue else {
                    throw client.missing("name in a tool_use block")
                }
                let input = block["input"] ?? .object([:])
                if let structuredTool, name == structuredTool.name {
                    structuredAnswer = (structuredTool.isWrapped ? input["value"] ?? .null : input).jsonText
                } else {
                    toolCalls.append(LanguageModelToolCall(
                        id: block["id"]?.stringValue ?? ProviderWire.generatedCallID(), name: name,
                        arguments: input.jsonText))
                }
            default:
                continue  // thinking, redacted_thinking, server tool blocks
            }
        }
        // Anthropic counts cached input apart: input_tokens is only what was read afresh.
        let usage = TokenUsage.reported(in: json["usage"], prompt: "input_tokens", completion: "output_tokens").map { usage in
            let cacheRead = json["usage"]?["cache_read_input_tokens"]?.intValue
            let cacheWrite = json["usage"]?["cache_creation_input_tokens"]?.intValue ?? 0
            return TokenUsage(
                promptTokens: usage.promptTokens + (cacheRead ?? 0) + cacheWrite, completionTokens: usage.completionTokens,
                cachedPromptTokens: cacheRead)
        }
        if let structuredAnswer {
            if toolCalls.isEmpty, finishReason == "tool_use" {
                finishReason = "end_turn"
            }
            return LanguageModelResponse(text: structuredAnswer, toolCalls: toolCalls, finishReason: finishReason, usage: usage)
        }
        return LanguageModelResponse(text: texts.joined(), toolCalls: toolCalls, finishReason: finishReason, usage: usage)
    }
}
