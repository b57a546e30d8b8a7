import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

/// Requests, keys and helpers the provider tests share.
enum LanguageModelFixtures {
    /// A key that must appear only in its authentication header.
    static let apiKey = "sk-test-SECRET-4f9c2a7e1b"

    /// Retries with delays short enough for tests.
    static let fastRetry = RetryPolicy(maxRetries: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5))

    /// Backoff so long that a test only finishes quickly if the server's `Retry-After: 0` was used.
    static let slowBackoffRetry = RetryPolicy(maxRetries: 1, baseDelay: .seconds(3600), maxDelay: .seconds(3600))

    static let runSQLParameters: JSONValue = [
        "type": "object",
        "properties": ["sql": ["type": "string", "description": "One SQLite statement."]],
        "required": ["sql"],
        "additionalProperties": false,
    ]

    static let runSQL = LanguageModelTool(
        name: "run_sql", description: "Runs one read-only SQLite statement.", parameters: runSQLParameters)

    static let answerSchema: JSONValue = [
        "type": "object",
        "properties": ["summary": ["type": "string"], "row_count": ["type": ["integer", "null"]]],
        "required": ["summary", "row_count"],
        "additionalProperties": false,
    ]

    static let previousCall = LanguageModelToolCall(
        id: "call_9Gz1", name: "run_sql", arguments: #"{"sql":"SELECT COUNT(*) FROM albums"}"#)

    /// A conversation that went through one tool call and its result, with tools, a schema and
    /// sampling options.
    static let toolRoundTrip = LanguageModelRequest(
        messages: [
            .system("You answer questions about the Chinook database."),
            .user("How many albums are there?"),
            .assistant("", toolCalls: [previousCall]),
            .tool(#"{"columns":["COUNT(*)"],"rows":[[347]]}"#, callID: "call_9Gz1"),
        ],
        tools: [runSQL],
        responseFormat: .jsonSchema(name: "answer", schema: answerSchema),
        options: GenerationOptions(temperature: 0.2, maxTokens: 256, stop: ["</answer>"]))

    /// A single question, free text.
    static let question = LanguageModelRequest(messages: [.system("Be brief."), .user("How many albums are there?")])
}

/// The ``LanguageModelError`` `model` throws for `request`, or nil (recorded as an issue) when it
/// answers.
func caughtModelError(
    _ model: any LanguageModel, _ request: LanguageModelRequest, sourceLocation: SourceLocation = #_sourceLocation
) async -> LanguageModelError? {
    do {
        let response = try await model.respond(to: request)
        Issue.record("expected a LanguageModelError, got \(response)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The four HTTP providers, for tests every provider must pass, with responses in each one's real
/// wire format.
enum ProviderKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case openAI, anthropic, gemini, ollama

    var testDescription: String { rawValue }

    /// A model of this provider talking to `server`.
    func model(
        _ server: ReplayHTTPServer, apiKey: String? = LanguageModelFixtures.apiKey, timeout: Duration = .seconds(10),
        retryPolicy: RetryPolicy = LanguageModelFixtures.fastRetry
    ) -> any LanguageModel {
        model(baseURL: server.baseURL, apiKey: apiKey, timeout: timeout, retryPolicy: retryPolicy)
    }

    /// A model of this provider talking to `baseURL`.
    func model(baseURL: URL, apiKey: String?, timeout: Duration, retryPolicy: RetryPolicy) -> any LanguageModel {
        switch self {
        case .openAI:
            return OpenAICompatibleModel(
                model: "gpt-4o-mini", transport: .asyncHTTPClient, apiKey: apiKey, baseURL: baseURL.appendingPathComponent("v1"), timeout: timeout,
                retryPolicy: retryPolicy)
        case .anthropic:
            return AnthropicModel(
                model: "claude-sonnet-4-5", transport: .asyncHTTPClient, apiKey: apiKey, baseURL: baseURL, timeout: timeout, retryPolicy: retryPolicy)
        case .gemini:
            return GeminiModel(
                model: "gemini-2.5-flash", transport: .asyncHTTPClient, apiKey: apiKey, baseURL: baseURL.appendingPathComponent("v1beta"),
                timeout: timeout, retryPolicy: retryPolicy)
        case .ollama:
            return OllamaModel(
                model: "qwen2.5-coder:7b", transport: .asyncHTTPClient, apiKey: apiKey, baseURL: baseURL, timeout: timeout, retryPolicy: retryPolicy)
        }
    }

    /// The path the provider posts to.
    var path: String {
        switch self {
        case .openAI: "/v1/chat/completions"
        case .anthropic: "/v1/messages"
        case .gemini: "/v1beta/models/gemini-2.5-flash:generateContent"
        case .ollama: "/api/chat"
        }
    }

    /// A successful answer "There are 347 albums." as the provider sends it.
    var textAnswer: String {
        switch self {
        case .openAI: OpenAIWire.textAnswer
        case .anthropic: AnthropicWire.textAnswer
        case .gemini: GeminiWire.textAnswer
        case .ollama: OllamaWire.textAnswer
        }
    }

    /// A 500 answer as the provider sends it, and the message it carries.
    var serverError: (body: String, message: String) {
        switch self {
        case .openAI: (OpenAIWire.serverError, "The server had an error while processing your request. Sorry about that!")
        case .anthropic: (AnthropicWire.serverError, "Internal server error")
        case .gemini: (GeminiWire.serverError, "An internal error has occurred.")
        case .ollama: (OllamaWire.serverError, "llama runner process has terminated: signal: killed")
        }
    }

    /// A 429 answer as the provider sends it.
    var rateLimitError: String {
        switch self {
        case .openAI: OpenAIWire.rateLimitError
        case .anthropic: AnthropicWire.rateLimitError
        case .gemini: GeminiWire.rateLimitError
        case .ollama: #"{"error":"server busy, please try again.  maximum pending requests exceeded"}"#
        }
    }
}
