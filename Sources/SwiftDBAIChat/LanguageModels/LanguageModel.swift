import SwiftDBAI

/// A language model that answers chat requests: the one seam between SwiftDBAI and any LLM.
///
/// Providers over HTTP (``OpenAICompatibleModel``, ``AnthropicModel``, ``GeminiModel``,
/// ``OllamaModel``), the MCP client's own model through sampling, or a scripted fake in tests all
/// conform. The shape is deliberately small so a thin adapter can wrap another library's session
/// type (for example HuggingFace AnyLanguageModel on Apple platforms): messages in, text or tool
/// calls out.
///
/// ```swift
/// let response = try await model.respond(to: LanguageModelRequest(messages: [
///     .system("Reply with one SQLite statement."), .user("How many albums are there?"),
/// ]))
/// ```
public protocol LanguageModel: Sendable {
    /// A short name for logs and results (`openai:gpt-4o-mini`, `sampling`).
    var name: String { get }
    /// What the model supports beyond plain text.
    var capabilities: LanguageModelCapabilities { get }
    /// Answers one request.
    ///
    /// - Throws: ``LanguageModelError``.
    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse

    /// The context window the model serves requests with, in tokens, when the provider says it
    /// (a llama.cpp or vLLM server reports the one it was started with); nil when it does not.
    /// A ``ChatEngine`` sizes its prompt to it unless ``ChatConfiguration/contextTokens`` is set.
    func contextWindow() async -> Int?
}

extension LanguageModel {
    /// No context window reported.
    public func contextWindow() async -> Int? { nil }
}

/// What a model supports beyond plain text.
public struct LanguageModelCapabilities: Sendable, Hashable {
    /// The model can call tools (function calling).
    public var toolCalling: Bool
    /// The model can be constrained to a JSON schema.
    public var structuredOutput: Bool

    /// Creates capabilities.
    public init(toolCalling: Bool = false, structuredOutput: Bool = false) {
        self.toolCalling = toolCalling
        self.structuredOutput = structuredOutput
    }

    /// Plain text only.
    public static let textOnly = LanguageModelCapabilities()
}

/// One message of a conversation.
public struct ChatMessage: Sendable, Hashable {
    /// Who speaks.
    public enum Role: String, Sendable, Hashable, Codable {
        case system, user, assistant, tool
    }

    /// Who speaks.
    public var role: Role
    /// The text (may be empty for an assistant message that only calls tools).
    public var content: String
    /// Tools the assistant called in this message.
    public var toolCalls: [LanguageModelToolCall]
    /// For a `tool` message: the call it answers.
    public var toolCallID: String?

    /// Creates a message.
    public init(role: Role, content: String, toolCalls: [LanguageModelToolCall] = [], toolCallID: String? = nil) {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
    }

    /// A system message.
    public static func system(_ text: String) -> ChatMessage { ChatMessage(role: .system, content: text) }
    /// A user message.
    public static func user(_ text: String) -> ChatMessage { ChatMessage(role: .user, content: text) }
    /// An assistant message.
    public static func assistant(_ text: String, toolCalls: [LanguageModelToolCall] = []) -> ChatMessage {
        ChatMessage(role: .assistant, content: text, toolCalls: toolCalls)
    }
    /// The result of a tool call.
    public static func tool(_ text: String, callID: String) -> ChatMessage {
        ChatMessage(role: .tool, content: text, toolCallID: callID)
    }
}

/// A tool the model may call.
public struct LanguageModelTool: Sendable, Hashable {
    /// The tool name (`run_sql`).
    public var name: String
    /// What the tool does, for the model.
    public var description: String
    /// The JSON Schema of its arguments.
    public var parameters: JSONValue

    /// Creates a tool definition.
    public init(name: String, description: String, parameters: JSONValue) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }
}

/// A call of a tool by the model.
public struct LanguageModelToolCall: Sendable, Hashable {
    /// The provider's call identifier (generated when the provider has none).
    public var id: String
    /// The tool called.
    public var name: String
    /// The arguments as JSON text, as the model wrote them (it may not be valid JSON).
    public var arguments: String

    /// Creates a tool call.
    public init(id: String, name: String, arguments: String) {
        self.id = id
        self.name = name
        self.arguments = arguments
    }
}

/// The shape the answer must take.
public enum ResponseFormat: Sendable, Hashable {
    /// Free text.
    case text
    /// A JSON object valid against the schema (providers that support it constrain decoding).
    case jsonSchema(name: String, schema: JSONValue)
}

/// Sampling options.
public struct GenerationOptions: Sendable, Hashable {
    /// 0 for the most likely tokens.
    public var temperature: Double?
    /// The most tokens to generate.
    public var maxTokens: Int?
    /// Sequences that end generation.
    public var stop: [String]
    /// Whether to ask for the log-probability of each generated token (providers that cannot give
    /// them answer without: ``LanguageModelResponse/tokenLogprobs`` stays nil).
    public var logprobs: Bool
    /// The context window the request needs, in tokens, for providers that size it per request
    /// (Ollama's `num_ctx`, whose default is smaller than most prompts); nil for the provider's.
    public var contextTokens: Int?

    /// Creates options.
    public init(temperature: Double? = nil, maxTokens: Int? = nil, stop: [String] = [], logprobs: Bool = false, contextTokens: Int? = nil) {
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.stop = stop
        self.logprobs = logprobs
        self.contextTokens = contextTokens
    }
}

/// One request to a model.
public struct LanguageModelRequest: Sendable, Hashable {
    /// The conversation so far, system message first.
    public var messages: [ChatMessage]
    /// Tools the model may call (empty for none).
    public var tools: [LanguageModelTool]
    /// The shape of the answer.
    public var responseFormat: ResponseFormat
    /// Sampling options.
    public var options: GenerationOptions
    /// The longest this request may take, instead of the model's own timeout; nil for the
    /// model's. A chat engine gives more time to a request whose prompt the model has not
    /// read before: a local model on a CPU reads a long schema prompt slowly, and only once.
    public var timeout: Duration?

    /// Creates a request.
    public init(
        messages: [ChatMessage], tools: [LanguageModelTool] = [], responseFormat: ResponseFormat = .text,
        options: GenerationOptions = GenerationOptions(), timeout: Duration? = nil
    ) {
        self.messages = messages
        self.tools = tools
        self.responseFormat = responseFormat
        self.options = options
        self.timeout = timeout
    }
}

/// A model's answer.
public struct LanguageModelResponse: Sendable, Hashable {
    /// The text of the answer (may be empty when the model only called tools).
    public var text: String
    /// Tools the model called.
    public var toolCalls: [LanguageModelToolCall]
    /// Why generation stopped, as the provider says it (`stop`, `length`, `tool_calls`…).
    public var finishReason: String?
    /// The tokens the request used, when the provider reports them.
    public var usage: TokenUsage?
    /// How likely the model found each token it generated, in order, when the request asked for
    /// them (``GenerationOptions/logprobs``) and the provider gives them; nil otherwise.
    public var tokenLogprobs: [TokenLogprob]?

    /// Creates a response.
    public init(
        text: String, toolCalls: [LanguageModelToolCall] = [], finishReason: String? = nil, usage: TokenUsage? = nil,
        tokenLogprobs: [TokenLogprob]? = nil
    ) {
        self.text = text
        self.toolCalls = toolCalls
        self.finishReason = finishReason
        self.usage = usage
        self.tokenLogprobs = tokenLogprobs
    }
}

/// Why a model could not answer. Messages never contain API keys.
public enum LanguageModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider could not be reached (connection refused, DNS, TLS).
    case unreachable(provider: String, reason: String)
    /// The provider answered with an HTTP error; `message` is the provider's own.
    case httpStatus(provider: String, status: Int, message: String)
    /// The provider is rate limiting; retry after the given delay when it says one.
    case rateLimited(provider: String, retryAfter: Duration?)
    /// No answer within the timeout.
    case timeout(provider: String, seconds: Double)
    /// The answer could not be understood (malformed JSON, missing fields).
    case unparseableResponse(provider: String, reason: String)
    /// The provider refused to answer or filtered the content.
    case refused(provider: String, reason: String)
    /// The request is not valid for this model (for example no API key in the environment).
    case invalidConfiguration(String)
    /// The task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .unreachable(let provider, let reason):
            return "\(provider) could not be reached: \(reason). Check the base URL and that the server runs."
        case .httpStatus(let provider, let status, let message):
            return "\(provider) answered HTTP \(status): \(message)"
        case .rateLimited(let provider, let retryAfter):
            let wait = retryAfter.map { " Retry after \(Int($0.components.seconds)) s." } ?? " Retry later."
            return "\(provider) is rate limiting requests.\(wait)"
        case .timeout(let provider, let seconds):
            return "\(provider) did not answer within \(Int(seconds)) s."
        case .unparseableResponse(let provider, let reason):
            return "\(provider) sent an answer that could not be read: \(reason)"
        case .refused(let provider, let reason):
            return "\(provider) refused to answer: \(reason)"
        case .invalidConfiguration(let message):
            return message
        case .cancelled:
            return "The request to the model was cancelled."
        }
    }
}
