import Foundation
import SwiftDBAI

/// A hosted language model that authenticates with an API key from the environment:
/// ``OpenAICompatibleModel`` (OpenAI), ``AnthropicModel`` and ``GeminiModel``. They share
/// ``fromEnvironment(model:transport:baseURL:environment:timeout:retryPolicy:)``.
public protocol HostedLanguageModel: LanguageModel {
    /// The environment variable that holds the API key (`OPENAI_API_KEY`, …).
    static var apiKeyVariable: String { get }
    /// The provider's name in messages (`OpenAI`, `Anthropic`, `Gemini`).
    static var providerName: String { get }
    /// The base URL of the provider's API.
    static var defaultBaseURL: URL { get }

    /// Creates the model with the provider's defaults for everything else.
    init(
        model: String, transport: any HTTPTransport, apiKey: String?, baseURL: URL, timeout: Duration,
        retryPolicy: RetryPolicy)
}

extension HostedLanguageModel {
    /// Creates the model with the key from ``apiKeyVariable``.
    ///
    /// ```swift
    /// let model = try AnthropicModel.fromEnvironment(model: "claude-sonnet-4-5", transport: .asyncHTTPClient)
    /// ```
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` naming the variable when it is
    ///   not set, or when its value holds a line break or another control character.
    public static func fromEnvironment(
        model: String,
        transport: any HTTPTransport,
        baseURL: URL = Self.defaultBaseURL,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .standard
    ) throws(LanguageModelError) -> Self {
        let key = try APIKey.required(apiKeyVariable, in: environment, for: providerName)
        return Self(
            model: model, transport: transport, apiKey: key.secret, baseURL: baseURL, timeout: timeout, retryPolicy: retryPolicy)
    }
}
