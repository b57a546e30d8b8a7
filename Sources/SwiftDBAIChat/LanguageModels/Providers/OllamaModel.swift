import Foundation
import SwiftDBAI

/// A model served by Ollama, through its native chat API.
///
/// Posts to `{baseURL}/api/chat` with `"stream": false`. Tool-call arguments travel as JSON
/// objects; tool results carry the name of the tool they answer (`tool_name`). Sampling options go
/// in `options` (`temperature`, `num_predict`, `stop`, and `num_ctx` from
/// ``GenerationOptions/contextTokens``). For Ollama's OpenAI-compatible endpoint use
/// ``OpenAICompatibleModel`` with base URL `http://127.0.0.1:11434/v1` instead.
///
/// ```swift
/// let model = OllamaModel(model: "qwen2.5-coder:7b", transport: .asyncHTTPClient)
/// ```
///
/// Structured output sends the JSON schema as `format`, which Ollama enforces with a grammar.
public struct OllamaModel: HTTPLanguageModel {
    /// `http://127.0.0.1:11434`.
    public static let defaultBaseURL = ProviderWire.literalURL("http://127.0.0.1:11434")

    /// The model name (`llama3.2`, `qwen2.5-coder:7b`).
    public let model: String
    /// The server's base URL; requests go to `{baseURL}/api/chat`.
    public let baseURL: URL
    /// Whether the server is asked for tool calls and JSON schemas.
    public let capabilities: LanguageModelCapabilities
    /// `ollama:MODEL`.
    public var name: String { "ollama:\(model)" }

    private let apiKey: APIKey?
    private let client: HTTPModelClient

    /// Creates a model served by Ollama.
    ///
    /// - Parameters:
    ///   - model: The model name, with its tag if any.
    ///   - transport: What carries the requests: `.asyncHTTPClient` from `SwiftDBAIAsyncHTTPClient`, or
    ///     your own ``HTTPTransport``.
    ///   - apiKey: A key sent as `Authorization: Bearer …` (Ollama behind an authenticating proxy,
    ///     or ollama.com); nil, the default, sends none.
    ///   - baseURL: The server's base URL, without `/api`.
    ///   - capabilities: Whether the model supports tools and JSON schemas (both by default; many
    ///     small models do not call tools).
    ///   - timeout: The longest one attempt may take (60 s by default; a first request also loads
    ///     the model).
    ///   - retryPolicy: How transient failures are retried.
    public init(
        model: String,
        transport: any HTTPTransport,
        apiKey: String? = nil,
        baseURL: URL = OllamaModel.defaultBaseURL,
        capabilities: LanguageModelCapabilities = LanguageModelCapabilities(toolCalling: true, structuredOutput: true),
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .standard
    ) {
        self.model = model
        self.baseURL = baseURL
        self.capabilities = capabilities
        let key = APIKey(apiKey)
        self.apiKey = key
        self.client = HTTPModelClient(
            provider: "Ollama at \(ProviderWire.displayed(baseURL))", timeout: timeout, retryPolicy: retryPolicy,
            secrets: [key],
            transport: transport)
    }

    /// Answers one request with `/api/chat`.
    ///
    /// - Throws: ``LanguageModelError``.
    public func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let body = try requestBody(for: request)
        let endpoint = try ProviderWire.endpoint(baseURL, "api/chat")
        var headers: [String: String] = [:]
        if let apiKey {
            headers["Authorization"] = "Bearer \(apiKey.secret)"
        }
        let json = try await client.postJSON(to: endpoint, headers: headers, body: body, timeout: request.timeout)
        return try response(from: json)
    }

    // MARK: - Wire format

    func requestBody(for request: LanguageModelRequest) throws(LanguageModelError) -> JSONValue {
        try ProviderWire.checkTools(request, capabilities: capabilities, name: name)
        var body: [String: JSONValue] = [
            "model": .string(model),
            "stream": false,
            "messages": .array(try request.messages.map { message throws(LanguageModelError) in
                try Self.wireMessage(message, in: request.messages)
            }),
        ]
        if !request.tools.isEmpty {
            body["tools"] = ProviderWire.functionTools(request.tools)
        }
        if case .jsonSchema(_, let schema) = request.responseFormat, capabilities.structuredOutput {
            body["format"] = schema
        }
        var options: [String: JSONValue] = [:]
        if let temperature = request.options.temperature {
            options["temperature"] = .number(temperature)
        }
        if let maxTokens = request.options.maxTokens {
            options["num_predict"] = .number(Double(maxTokens))
        }
        if !request.options.stop.isEmpty {
            options["stop"] = .array(request.options.stop.map(JSONValue.string))
        }
        if let contextTokens = request.options.contextTokens {
            // Ollama's default context is smaller than a schema prompt, and it cuts what overflows.
            options["num_ctx"] = .number(Double(contextTokens))
        }
        if !options.isEmpty {
            body["options"] = .object(options)
        }
        if request.options.logprobs {
            // Ollama 0.12.11 and later; earlier versions ignore them.
            body["logprobs"] = true
            body["top_logprobs"] = 2
        }
        return .object(body)
    }

    private static func wireMessage(_ message: ChatMessage, in messages: [ChatMessage]) throws(LanguageModelError)
        -> JSONValue
    {
        var wire: [String: JSONValue] = [
            "role": .string(message.role.rawValue), "content": .string(message.content),
        ]
        switch message.role {
        case .system, .user:
            break
        case .assistant:
            if !message.toolCalls.isEmpty {
                wire["tool_calls"] = .array(message.toolCalls.map { call in
                    [
                        "id": .string(call.id),
                        "function": [
                            "name": .string(call.name), "arguments": ProviderWire.argumentsObject(call.arguments),
                        ],
                    ]
                })
            }
        case .tool:
            let callID = try ProviderWire.callID(of: message)
            wire["tool_call_id"] = .string(callID)
            if let name = ProviderWire.toolName(forCallID: callID, in: messages) {
                wire["tool_name"] = .string(name)
            }
        }
        return .object(wire)
    }

    func response(from json: JSONValue) throws(LanguageModelError) -> LanguageModelResponse {
        guard let message = json["message"] else {
            throw client.missing("message")
        }
        let toolCalls = try ProviderWire.functionCalls(in: message, client: client)
        return LanguageModelResponse(
            text: message["content"]?.stringValue ?? "", toolCalls: toolCalls,
            finishReason: json["done_reason"]?.stringValue,
            usage: TokenUsage.reported(in: json, prompt: "prompt_eval_count", completion: "eval_count"),
            tokenLogprobs: ProviderWire.tokenLogprobs(json["logprobs"]))
    }
}
