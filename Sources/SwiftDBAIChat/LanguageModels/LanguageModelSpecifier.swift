import Foundation
import SwiftDBAI

/// Which language model to use, written `PROVIDER:MODEL`: what `--llm` and `--llm-base-url` hold.
///
/// Accepted forms: `openai:MODEL`, `anthropic:MODEL`, `gemini:MODEL`, `ollama:MODEL`,
/// `openai-compatible:MODEL` (the last needs a base URL; for the others a base URL overrides the
/// default). The model is everything after the first colon, so `ollama:qwen2.5-coder:7b` names
/// the model `qwen2.5-coder:7b`.
///
/// ```swift
/// let specifier = try LanguageModelSpecifier(parsing: "openai-compatible:qwen", baseURL: "http://127.0.0.1:8088/v1")
/// let model = try specifier.makeModel(environment: ProcessInfo.processInfo.environment, transport: .asyncHTTPClient)
/// ```
///
/// API keys come from the environment only: `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` and
/// `GEMINI_API_KEY` are required by their providers. `openai-compatible` sends
/// `OPENAI_COMPATIBLE_API_KEY` and `ollama` sends `OLLAMA_API_KEY` when set (local servers need
/// none); `OPENAI_API_KEY` is never sent to a server other than the one `openai:` names.
public struct LanguageModelSpecifier: Sendable, Hashable, CustomStringConvertible {
    /// A provider of language models.
    public enum Provider: String, Sendable, Hashable, CaseIterable {
        /// OpenAI's chat completions.
        case openAI = "openai"
        /// Anthropic's Messages API.
        case anthropic
        /// Google's Gemini API.
        case gemini
        /// Ollama's native chat API.
        case ollama
        /// Any OpenAI-compatible chat completions server (llama.cpp, vLLM, LM Studio…).
        case openAICompatible = "openai-compatible"
    }

    /// The environment variable of the optional key for `openai-compatible` servers.
    public static let openAICompatibleAPIKeyVariable = "OPENAI_COMPATIBLE_API_KEY"
    /// The environment variable of the optional key for Ollama.
    public static let ollamaAPIKeyVariable = "OLLAMA_API_KEY"

    /// The accepted forms, for messages.
    public static let acceptedForms =
        "openai:MODEL, anthropic:MODEL, gemini:MODEL, ollama:MODEL or openai-compatible:MODEL (with a base URL)"

    /// The provider.
    public var provider: Provider
    /// The model name, as the provider knows it.
    public var model: String
    /// The base URL, replacing the provider's default; required for `openai-compatible`.
    public var baseURL: URL?

    /// Creates a specifier.
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` when the model is empty or
    ///   `openai-compatible` has no base URL.
    public init(provider: Provider, model: String, baseURL: URL? = nil) throws(LanguageModelError) {
        let model = model.trimmingCharacters(in: .whitespaces)
        guard !model.isEmpty else {
            throw .invalidConfiguration(
                "The language model \"\(provider.rawValue):\" names no model. Use \(Self.acceptedForms).")
        }
        if provider == .openAICompatible, baseURL == nil {
            throw .invalidConfiguration(
                "openai-compatible:\(model) needs a base URL, for example http://127.0.0.1:8080/v1.")
        }
        self.provider = provider
        self.model = model
        self.baseURL = baseURL
    }

    /// Parses `PROVIDER:MODEL` and an optional base URL.
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` naming the accepted forms when
    ///   the text is not one of them, or when the base URL is not an http(s) URL.
    public init(parsing text: String, baseURL: String? = nil) throws(LanguageModelError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.firstIndex(of: ":") else {
            throw .invalidConfiguration(
                "\"\(trimmed)\" is not a language model. Use \(Self.acceptedForms).")
        }
        let providerName = trimmed[..<colon].lowercased()
        guard let provider = Provider(rawValue: providerName) else {
            throw .invalidConfiguration(
                "\"\(providerName)\" is not a known language model provider. Use \(Self.acceptedForms).")
        }
        var url: URL?
        if let baseURL = baseURL?.trimmingCharacters(in: .whitespaces), !baseURL.isEmpty {
            guard let parsed = URL(string: baseURL), parsed.scheme == "http" || parsed.scheme == "https",
                parsed.host?.isEmpty == false
            else {
                throw .invalidConfiguration(
                    "The base URL \"\(baseURL)\" is not an http(s) URL (for example http://127.0.0.1:8080/v1).")
            }
            url = parsed
        }
        try self.init(provider: provider, model: String(trimmed[trimmed.index(after: colon)...]), baseURL: url)
    }

    /// `PROVIDER:MODEL`.
    public var description: String { "\(provider.rawValue):\(model)" }

    /// Makes the model, with its API key from `environment`.
    ///
    /// - Parameters:
    ///   - environment: Where API keys are read (the process environment in the command line).
    ///   - transport: What carries the requests (`.asyncHTTPClient` from `SwiftDBAIAsyncHTTPClient`).
    ///   - timeout: The longest one attempt may take.
    ///   - retryPolicy: How transient failures are retried.
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` naming the environment variable
    ///   when a required API key is missing, or when a key holds a line break or another control
    ///   character.
    public func makeModel(
        environment: [String: String],
        transport: any HTTPTransport,
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .standard
    ) throws(LanguageModelError) -> any LanguageModel {
        switch provider {
        case .openAI:
            return try OpenAICompatibleModel.fromEnvironment(
                model: model, transport: transport, baseURL: baseURL ?? OpenAICompatibleModel.openAIBaseURL, environment: environment,
                timeout: timeout, retryPolicy: retryPolicy)
        case .anthropic:
            return try AnthropicModel.fromEnvironment(
                model: model, transport: transport, baseURL: baseURL ?? AnthropicModel.defaultBaseURL, environment: environment,
                timeout: timeout, retryPolicy: retryPolicy)
        case .gemini:
            return try GeminiModel.fromEnvironment(
                model: model, transport: transport, baseURL: baseURL ?? GeminiModel.defaultBaseURL, environment: environment,
                timeout: timeout, retryPolicy: retryPolicy)
        case .ollama:
            return OllamaModel(
                model: model, transport: transport,
                apiKey: try APIKey.optional(Self.ollamaAPIKeyVariable, in: environment)?.secret,
                baseURL: baseURL ?? OllamaModel.defaultBaseURL, timeout: timeout, retryPolicy: retryPolicy)
        case .openAICompatible:
            guard let baseURL else {
                throw .invalidConfiguration(
                    "openai-compatible:\(model) needs a base URL, for example http://127.0.0.1:8080/v1.")
            }
            return OpenAICompatibleModel(
                model: model, transport: transport,
                apiKey: try APIKey.optional(Self.openAICompatibleAPIKeyVariable, in: environment)?.secret, baseURL: baseURL,
                timeout: timeout, retryPolicy: retryPolicy)
        }
    }
}
