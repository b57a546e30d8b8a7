import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

@Suite("LanguageModelSpecifier")
struct LanguageModelSpecifierTests {
    static let environment = [
        "OPENAI_API_KEY": "sk-openai-test", "ANTHROPIC_API_KEY": "sk-ant-test", "GEMINI_API_KEY": "gemini-test",
    ]

    @Test(
        "PROVIDER:MODEL is parsed and makes the right model",
        arguments: [
            ("openai:gpt-4o-mini", nil, "openai:gpt-4o-mini", "https://api.openai.com/v1"),
            ("anthropic:claude-sonnet-4-5", nil, "anthropic:claude-sonnet-4-5", "https://api.anthropic.com"),
            ("gemini:gemini-2.5-flash", nil, "gemini:gemini-2.5-flash", "https://generativelanguage.googleapis.com/v1beta"),
            ("ollama:qwen2.5-coder:7b", nil, "ollama:qwen2.5-coder:7b", "http://127.0.0.1:11434"),
            ("openai-compatible:qwen", "http://127.0.0.1:8088/v1", "openai-compatible:qwen", "http://127.0.0.1:8088/v1"),
            ("ollama:llama3.2", "http://gpu-box:11434", "ollama:llama3.2", "http://gpu-box:11434"),
            (" OpenAI:gpt-4o ", nil, "openai:gpt-4o", "https://api.openai.com/v1"),
        ] as [(String, String?, String, String)])
    func parses(text: String, baseURL: String?, name: String, expectedBaseURL: String) throws {
        let specifier = try LanguageModelSpecifier(parsing: text, baseURL: baseURL)
        #expect(specifier.description == name)
        let model = try specifier.makeModel(environment: Self.environment, transport: .asyncHTTPClient)
        #expect(model.name == name)
        let madeBaseURL: URL? = switch model {
        case let model as OpenAICompatibleModel: model.baseURL
        case let model as AnthropicModel: model.baseURL
        case let model as GeminiModel: model.baseURL
        case let model as OllamaModel: model.baseURL
        default: nil
        }
        #expect(madeBaseURL?.absoluteString == expectedBaseURL)
    }

    @Test(
        "malformed specifiers are refused with the accepted forms",
        arguments: ["gpt-4o", "openia:gpt-4o", "claude:sonnet", ":model", "openai:", "openai:   ", ""])
    func refusesMalformed(text: String) {
        #expect {
            _ = try LanguageModelSpecifier(parsing: text)
        } throws: { error in
            guard case LanguageModelError.invalidConfiguration(let message) = error else { return false }
            return message.contains("openai:MODEL") && message.contains("openai-compatible:MODEL")
        }
    }

    @Test("openai-compatible needs a base URL; a base URL must be http(s)")
    func baseURLRules() {
        #expect {
            _ = try LanguageModelSpecifier(parsing: "openai-compatible:qwen")
        } throws: { error in
            guard case LanguageModelError.invalidConfiguration(let message) = error else { return false }
            return message.contains("needs a base URL")
        }
        for bad in ["ftp://example.com", "127.0.0.1:8080", "not a url"] {
            #expect {
                _ = try LanguageModelSpecifier(parsing: "ollama:llama3.2", baseURL: bad)
            } throws: { error in
                guard case LanguageModelError.invalidConfiguration(let message) = error else { return false }
                return message.contains("not an http(s) URL")
            }
        }
    }

    @Test(
        "a missing required key names its environment variable",
        arguments: [
            ("openai:gpt-4o-mini", "OPENAI_API_KEY"), ("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
            ("gemini:gemini-2.5-flash", "GEMINI_API_KEY"),
        ])
    func missingKey(text: String, variable: String) throws {
        let specifier = try LanguageModelSpecifier(parsing: text)
        var environment = Self.environment
        environment[variable] = "  "
        #expect {
            _ = try specifier.makeModel(environment: environment, transport: .asyncHTTPClient)
        } throws: { error in
            guard case LanguageModelError.invalidConfiguration(let message) = error else { return false }
            return message.contains(variable)
        }
    }

    @Test("local providers need no key")
    func localNeedsNoKey() throws {
        let ollama = try LanguageModelSpecifier(parsing: "ollama:llama3.2").makeModel(environment: [:], transport: .asyncHTTPClient)
        #expect(ollama.name == "ollama:llama3.2")
        let local = try LanguageModelSpecifier(parsing: "openai-compatible:qwen", baseURL: "http://127.0.0.1:8088/v1")
            .makeModel(environment: [:], transport: .asyncHTTPClient)
        #expect(local.capabilities == LanguageModelCapabilities(toolCalling: true, structuredOutput: true))
    }

    @Test("OPENAI_API_KEY is not sent to an openai-compatible server; its own variable is")
    func compatibleKeys() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.textAnswer), .json(OpenAIWire.textAnswer)])
        let specifier = try LanguageModelSpecifier(
            parsing: "openai-compatible:qwen", baseURL: server.url("v1").absoluteString)
        _ = try await specifier.makeModel(environment: Self.environment, transport: .asyncHTTPClient).respond(to: LanguageModelFixtures.question)
        #expect(server.requests.last?.headers["authorization"] == nil)
        let withOwnKey = Self.environment.merging(["OPENAI_COMPATIBLE_API_KEY": "vllm-key"]) { $1 }
        _ = try await specifier.makeModel(environment: withOwnKey, transport: .asyncHTTPClient).respond(to: LanguageModelFixtures.question)
        #expect(server.requests.last?.headers["authorization"] == "Bearer vllm-key")
    }

    @Test(
        "a key with a line break in the environment is a configuration error naming the variable, not the key",
        arguments: [
            ("openai:gpt-4o-mini", "OPENAI_API_KEY"), ("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"),
            ("gemini:gemini-2.5-flash", "GEMINI_API_KEY"), ("ollama:llama3.2", "OLLAMA_API_KEY"),
        ])
    func keyWithLineBreak(text: String, variable: String) throws {
        let specifier = try LanguageModelSpecifier(parsing: text)
        let error = #expect(throws: LanguageModelError.self) {
            _ = try specifier.makeModel(environment: [variable: "abc-key\nX-Injected: 1"], transport: .asyncHTTPClient)
        }
        guard case .invalidConfiguration(let message)? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains(variable))
        #expect(!message.contains("abc-key"))
    }

    @Test("servers that usually run the model locally are asked for plain SQL, hosted providers for structured output")
    func preferredSQLOutput() throws {
        let local = try LanguageModelSpecifier(parsing: "openai-compatible:qwen", baseURL: "http://127.0.0.1:8088/v1")
        #expect(local.preferredSQLOutput == .text)
        #expect(try LanguageModelSpecifier(parsing: "ollama:qwen2.5-coder").preferredSQLOutput == .text)
        for hosted in ["openai:gpt-4o-mini", "anthropic:claude-sonnet-4-5", "gemini:gemini-2.5-flash"] {
            #expect(try LanguageModelSpecifier(parsing: hosted).preferredSQLOutput == .automatic)
        }
    }
}
