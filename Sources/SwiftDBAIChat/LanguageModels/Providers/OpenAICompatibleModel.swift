import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// A model behind an OpenAI-style chat completions endpoint: OpenAI itself, llama.cpp server,
/// llama-cpp-python, vLLM, LM Studio, Ollama's `/v1`.
///
/// Posts to `{baseURL}/chat/completions`. The API key, when there is one, goes in
/// `Authorization: Bearer …`; local servers usually need none.
///
/// ```swift
/// let openAI = try OpenAICompatibleModel.fromEnvironment(model: "gpt-4o-mini", transport: .asyncHTTPClient)
/// let local = OpenAICompatibleModel(model: "qwen", transport: .asyncHTTPClient, baseURL: llamaServerURL)  // http://127.0.0.1:8088/v1
/// ```
///
/// Structured output (``ResponseFormat/jsonSchema(name:schema:)``) is sent as `response_format` in
/// the configured ``StructuredOutputStyle``. When a server other than OpenAI rejects the
/// `json_schema` form and its error names `json_object` (llama-cpp-python answers 422 or 500 "Input should
/// be 'text' or 'json_object'"), the request is sent again as `json_object` with the schema, and
/// later requests of this model use that form. With ``LanguageModelCapabilities/structuredOutput``
/// off, the format is not sent and the model answers free text. A `content_filter` finish or a
/// `refusal` in the message becomes ``LanguageModelError/refused(provider:reason:)``.
public struct OpenAICompatibleModel: HTTPLanguageModel, HostedLanguageModel {
    /// How a JSON schema for the answer is sent.
    public enum StructuredOutputStyle: String, Sendable, Hashable, CaseIterable {
        /// `{"type": "json_schema", "json_schema": {"name": …, "schema": …, "strict": true}}`:
        /// OpenAI, vLLM, LM Studio, llama.cpp server, Ollama's `/v1`.
        case jsonSchema
        /// `{"type": "json_object", "schema": …}`: llama-cpp-python's own form.
        case jsonObjectWithSchema
    }

    /// Remembers that a server refused part of a request (`json_schema`, `logprobs`), so later
    /// requests leave it out.
    private final class Fallback: Sendable {
        private let isOn = Mutex(false)

        var isActive: Bool {
            isOn.withLock { $0 }
        }

        func activate() {
            isOn.withLock { $0 = true }
        }
    }

    /// `https://api.openai.com/v1`.
    public static let openAIBaseURL = ProviderWire.literalURL("https://api.openai.com/v1")
    /// The environment variable that holds the OpenAI API key.
    /// The OpenAI API, the base URL of ``fromEnvironment(model:transport:baseURL:environment:timeout:retryPolicy:)``.
    public static var defaultBaseURL: URL { openAIBaseURL }
    /// The provider's name in messages.
    public static let providerName = "OpenAI"
    public static let apiKeyVariable = "OPENAI_API_KEY"

    /// The model name sent to the server (`gpt-4o-mini`, `qwen`).
    public let model: String
    /// The base URL; requests go to `{baseURL}/chat/completions`.
    public let baseURL: URL
    /// How a JSON schema for the answer is sent.
    public let structuredOutputStyle: StructuredOutputStyle
    /// Whether the server is asked for tool calls and JSON schemas.
    public let capabilities: LanguageModelCapabilities
    /// `openai:MODEL` against OpenAI, `openai-compatible:MODEL` against another server.
    public let name: String

    private let apiKey: APIKey?
    private let client: HTTPModelClient
    private let styleFallback = Fallback()
    /// Set when the server refused `logprobs` (an OpenAI reasoning model, say): asked no more.
    private let logprobsRefused = Fallback()
    private let isOpenAI: Bool

    /// Creates a model for an OpenAI-compatible server.
    ///
    /// - Parameters:
    ///   - model: The model name the server knows.
    ///   - transport: What carries the requests: `.asyncHTTPClient` from `SwiftDBAIAsyncHTTPClient`, or
    ///     your own ``HTTPTransport``.
    ///   - apiKey: The key sent as `Authorization: Bearer …`; nil (or empty) sends no such header.
    ///   - baseURL: The server's base URL, up to and including `/v1`.
    ///   - structuredOutputStyle: How a JSON schema for the answer is sent.
    ///   - capabilities: Whether the server supports tools and JSON schemas (both by default).
    ///   - timeout: The longest one attempt may take (60 s by default).
    ///   - retryPolicy: How transient failures are retried.
    public init(
        model: String,
        transport: any HTTPTransport,
        apiKey: String? = nil,
        baseURL: URL = OpenAICompatibleModel.openAIBaseURL,
        structuredOutputStyle: StructuredOutputStyle = .jsonSchema,
        capabilities: LanguageModelCapabilities = LanguageModelCapabilities(toolCalling: true, structuredOutput: true),
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .standard
    ) {
        self.model = model
        self.baseURL = baseURL
        self.structuredOutputStyle = structuredOutputStyle
        self.capabilities = capabilities
        let isOpenAI = baseURL.host?.lowercased() == "api.openai.com"
        self.isOpenAI = isOpenAI
        self.name = (isOpenAI ? "openai:" : "openai-compatible:") + model
        let key = APIKey(apiKey)
        self.apiKey = key
        let provider = isOpenAI ? "OpenAI" : "The OpenAI-compatible server at \(ProviderWire.displayed(baseURL))"
        self.client = HTTPModelClient(provider: provider, timeout: timeout, retryPolicy: retryPolicy, secrets: [key],
            transport: transport)
    }

    /// Creates the model with the defaults of the other settings (``HostedLanguageModel``).
    public init(
        model: String, transport: any HTTPTransport, apiKey: String?, baseURL: URL, timeout: Duration,
        retryPolicy: RetryPolicy
    ) {
        self.init(
            model: model, transport: transport, apiKey: apiKey, baseURL: baseURL, structuredOutputStyle: .jsonSchema, timeout: timeout,
            retryPolicy: retryPolicy)
    }

    /// Answers one request with a chat completion.
    ///
    /// - Throws: ``LanguageModelError``.
    public func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        var request = request
        if logprobsRefused.isActive { request.options.logprobs = false }
        let style = styleFallback.isActive ? .jsonObjectWithSchema : structuredOutputStyle
        let endpoint = try ProviderWire.endpoint(baseURL, "chat/completions")
        let headers = authorization
        let json: JSONValue
        do {
            json = try await client.postJSON(to: endpoint, headers: headers, body: try requestBody(for: request, style: style), timeout: request.timeout)
        } catch where request.options.logprobs && Self.refusesLogprobs(error) {
            // A model that gives no log-probabilities: asked again without, and never again.
            logprobsRefused.activate()
            request.options.logprobs = false
            return try await respond(to: request)
        } catch {
            guard style == .jsonSchema, !isOpenAI, case .jsonSchema = request.responseFormat,
                capabilities.structuredOutput, case .httpStatus(_, let status, let message) = error,
                [400, 422, 500].contains(status), message.contains("json_object")
            else { throw error }
            styleFallback.activate()
            json = try await client.postJSON(
                to: endpoint, headers: headers, body: try requestBody(for: request, style: .jsonObjectWithSchema),
                timeout: request.timeout)
        }
        return try response(from: json)
    }

    /// The context window the server reports for this model in `{baseURL}/models`: the one it
    /// serves with (llama.cpp's `meta.n_ctx`, vLLM's `max_model_len`, LM Studio's
    /// `loaded_context_length`), never the length the model was trained for. Nil for OpenAI and
    /// any server that says none.
    public func contextWindow() async -> Int? {
        guard !isOpenAI, let endpoint = try? ProviderWire.endpoint(baseURL, "models"),
              let json = try? await client.getJSON(from: endpoint, headers: authorization, timeout: .seconds(5))
        else { return nil }
        return Self.reportedContext(in: json, model: model)
    }

    /// The context a `/models` answer gives for `model` (or for the one model listed).
    static func reportedContext(in json: JSONValue, model: String) -> Int? {
        let entries = json["data"]?.arrayValue ?? json["models"]?.arrayValue ?? []
        let entry = entries.first { $0["id"]?.stringValue == model || $0["model"]?.stringValue == model }
            ?? (entries.count == 1 ? entries.first : nil)
        guard let entry else { return nil }
        let candidates = [entry["max_model_len"], entry["meta"]?["n_ctx"], entry["loaded_context_length"], entry["n_ctx"]]
        return candidates.lazy.compactMap { $0?.intValue }.first { $0 > 0 }
    }

    /// Whether an error says the server does not give log-probabilities (rather than anything
    /// else being wrong with the request).
    static func refusesLogprobs(_ error: LanguageModelError) -> Bool {
        guard case .httpStatus(_, let status, let message) = error, [400, 422, 500, 501].contains(status) else { return false }
        return message.lowercased().contains("logprob")
    }

    private var authorization: [String: String] {
        apiKey.map { ["Authorization": "Bearer \($0.secret)"] } ?? [:]
    }

    // MARK: - Wire format

    func requestBody(for request: LanguageModelRequest, style: StructuredOutputStyle) throws(LanguageModelError)
        -> JSONValue
    {
        try ProviderWire.checkTools(request, capabilities: capabilities, name: name)
        var body: [String: JSONValue] = [
            "model": .string(model),
            "messages": .array(try request.messages.map { message throws(LanguageModelError) in
                try Self.wireMessage(message, in: request.messages)
            }),
        ]
        if !request.tools.isEmpty {
            body["tools"] = ProviderWire.functionTools(request.tools)
        }
        if case .jsonSchema(let schemaName, let schema) = request.responseFormat, capabilities.structuredOutput {
            switch style {
            case .jsonSchema:
                body["response_format"] = [
                    "type": "json_schema",
                    "json_schema": ["name": .string(schemaName), "schema": schema, "strict": true],
                ]
            case .jsonObjectWithSchema:
                body["response_format"] = ["type": "json_object", "schema": schema]
            }
        }
        if let temperature = request.options.temperature {
            body["temperature"] = .number(temperature)
        }
        if let maxTokens = request.options.maxTokens {
            body["max_tokens"] = .number(Double(maxTokens))
        }
        if !request.options.stop.isEmpty {
            body["stop"] = .array(request.options.stop.map(JSONValue.string))
        }
        if request.options.logprobs {
            body["logprobs"] = true
            body["top_logprobs"] = 2
        }
        return .object(body)
    }

    private static func wireMessage(_ message: ChatMessage, in messages: [ChatMessage]) throws(LanguageModelError)
        -> JSONValue
    {
        switch message.role {
        case .system, .user:
            return ["role": .string(message.role.rawValue), "content": .string(message.content)]
        case .assistant:
            var wire: [String: JSONValue] = [
                "role": "assistant",
                "content": .string(message.content),
            ]
            if !message.toolCalls.isEmpty {
                wire["tool_calls"] = .array(message.toolCalls.map { call in
                    [
                        "id": .string(call.id), "type": "function",
                        "function": ["name": .string(call.name), "arguments": .string(call.arguments)],
                    ]
                })
            }
            return .object(wire)
        case .tool:
            // `name` is not in OpenAI's schema but is accepted, and llama-cpp-python requires it.
            let callID = try ProviderWire.callID(of: message)
            return ProviderWire.object([
                "role": "tool", "tool_call_id": .string(callID), "content": .string(message.content),
                "name": ProviderWire.toolName(forCallID: callID, in: messages).map(JSONValue.string),
            ])
        }
    }

    func response(from json: JSONValue) throws(LanguageModelError) -> LanguageModelResponse {
        guard let choice = json["choices"]?.arrayValue?.first, let message = choice["message"] else {
            throw client.missing("choices[0].message")
        }
        let finishReason = choice["finish_reason"]?.stringValue
        if finishReason == "content_filter" {
            throw .refused(provider: client.provider, reason: "the content filter stopped the answer (content_filter)")
        }
        if let refusal = message["refusal"]?.stringValue, !refusal.isEmpty {
            throw .refused(provider: client.provider, reason: client.redact(refusal))
        }
        let text: String
        switch message["content"] {
        case .string(let content)?:
            text = content
        case .array(let parts)?:
            text = parts.compactMap { $0["text"]?.stringValue }.joined()
        default:
            text = ""
        }
        let toolCalls = try ProviderWire.functionCalls(in: message, client: client)
        let usage = TokenUsage.reported(
            in: json["usage"], prompt: "prompt_tokens", completion: "completion_tokens",
            cached: { $0["prompt_tokens_details"]?["cached_tokens"] })
        return LanguageModelResponse(
            text: text, toolCalls: toolCalls, finishReason: finishReason, usage: usage,
            tokenLogprobs: ProviderWire.tokenLogprobs(choice["logprobs"]?["content"]))
    }
}
