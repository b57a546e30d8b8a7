import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

/// Token log-probabilities and context windows, as the OpenAI-compatible servers (OpenAI,
/// llama.cpp, llama-cpp-python, vLLM) and Ollama send them.
@Suite("Token log-probabilities and context windows")
struct TokenLogprobTests {
    typealias Fixtures = LanguageModelFixtures

    /// llama-cpp-python's answer with `logprobs: true, top_logprobs: 2` (as it sends it).
    static let logprobAnswer = #"""
        {"id":"chatcmpl-075a","object":"chat.completion","created":1795846305,"model":"qwen","choices":[{"index":0,"message":{"content":"SELECT COUNT(*) FROM Album","role":"assistant"},"logprobs":{"content":[{"token":"SELECT","logprob":-0.0012,"bytes":null,"top_logprobs":[{"token":"SELECT","logprob":-0.0012,"bytes":null},{"token":"WITH","logprob":-7.1,"bytes":null}]},{"token":" COUNT","logprob":-0.9163,"bytes":null,"top_logprobs":[{"token":" COUNT","logprob":-0.9163,"bytes":null},{"token":" Title","logprob":-0.5108,"bytes":null}]},{"token":"(*) FROM Album","logprob":-0.05,"bytes":null,"top_logprobs":[]}],"refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":3,"total_tokens":33}}
        """#

    /// llama-cpp-python when the model was loaded without `logits_all`.
    static let logprobRefusal = #"""
        {"error":{"message":"logprobs is not supported for models created with logits_all=False","type":"internal_server_error"}}
        """#

    func model(_ server: ReplayHTTPServer) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            model: "qwen", transport: .asyncHTTPClient, baseURL: server.url("v1"), timeout: .seconds(10), retryPolicy: Fixtures.fastRetry)
    }

    @Test("asked for, log-probabilities are requested with the runner-up of each token, and read from the answer")
    func requestedAndRead() async throws {
        let server = try ReplayHTTPServer([.json(Self.logprobAnswer), .json(OpenAIWire.textAnswer)])
        var request = Fixtures.question
        request.options.logprobs = true
        let response = try await model(server).respond(to: request)
        #expect(server.requests.first?.json["logprobs"] == true && server.requests.first?.json["top_logprobs"] == 2)
        #expect(response.tokenLogprobs == [
            TokenLogprob(token: "SELECT", logprob: -0.0012, runnerUp: -7.1, runnerUpToken: "WITH"),
            TokenLogprob(token: " COUNT", logprob: -0.9163, runnerUp: -0.5108, runnerUpToken: " Title"),
            TokenLogprob(token: "(*) FROM Album", logprob: -0.05, runnerUp: nil),
        ])
        let certainty = try #require(TokenCertainty(response.tokenLogprobs))
        #expect(certainty.minLogprob == -0.9163 && certainty.hesitations == 1 && certainty.count == 3)
        #expect(abs(certainty.lowestProbability - 0.4) < 0.001)

        // Not asked for: not requested, and an answer without them has none.
        let plain = try await model(server).respond(to: Fixtures.question)
        #expect(server.requests.last?.json["logprobs"] == nil && plain.tokenLogprobs == nil)
        #expect(TokenCertainty(nil) == nil && TokenCertainty([]) == nil)
    }

    @Test("only the statement's tokens count: no fence, tag, whitespace or end; the same word in another case is no hesitation")
    func statementTokensOnly() throws {
        let tokens = [
            TokenLogprob(token: "```", logprob: -0.7, runnerUp: -0.7, runnerUpToken: "SELECT"),
            TokenLogprob(token: "sql", logprob: -0.9),
            TokenLogprob(token: "\n", logprob: -0.8),
            TokenLogprob(token: "SELECT", logprob: -0.01),
            TokenLogprob(token: " COUNT", logprob: -0.446, runnerUp: -1.05, runnerUpToken: " count"),
            TokenLogprob(token: " TRACK", logprob: -1.2, runnerUp: -0.9, runnerUpToken: " Album"),
            TokenLogprob(token: "\n```", logprob: -0.6),
            TokenLogprob(token: "", logprob: -0.5, runnerUp: -1, runnerUpToken: ";"),
        ]
        let certainty = try #require(TokenCertainty(tokens))
        #expect(certainty.count == 3 && certainty.hesitations == 1 && certainty.minLogprob == -1.2)
        #expect(abs(certainty.meanLogprob - (-0.01 + log(exp(-0.446) + exp(-1.05)) - 1.2) / 3) < 1e-9)
        #expect(TokenCertainty([TokenLogprob(token: "```", logprob: -1), TokenLogprob(token: " ", logprob: -1)]) == nil)
    }

    @Test("prose and thinking around the statement do not count; a statement not spelled by the tokens counts them all")
    func proseAroundTheStatement() throws {
        let tokens = [
            TokenLogprob(token: "<think>", logprob: -0.1), TokenLogprob(token: " maybe", logprob: -3),
            TokenLogprob(token: "</think>", logprob: -0.1), TokenLogprob(token: "I", logprob: -2.5),
            TokenLogprob(token: " think:", logprob: -1.5), TokenLogprob(token: " SELECT", logprob: -0.2),
            TokenLogprob(token: " 1", logprob: -0.3), TokenLogprob(token: ". Done", logprob: -4),
        ]
        let certainty = try #require(TokenCertainty(tokens, statement: "SELECT 1"))
        #expect(certainty.count == 2 && certainty.minLogprob == -0.3 && certainty.hesitations == 0)
        let all = try #require(TokenCertainty(tokens, statement: "SELECT 2"))
        #expect(all.count == 8 && all.minLogprob == -4)
    }

    @Test("a server that refuses log-probabilities is asked again without them, and never again")
    func refusedOnce() async throws {
        // A 500 is retried (twice with this policy) before the refusal is believed.
        let refusal = ReplayHTTPServer.Response.json(Self.logprobRefusal, status: 500)
        let server = try ReplayHTTPServer([refusal, refusal, refusal, .json(OpenAIWire.textAnswer), .json(OpenAIWire.textAnswer)])
        let model = model(server)
        var request = Fixtures.question
        request.options.logprobs = true
        let first = try await model.respond(to: request)
        #expect(first.text == "There are 347 albums." && first.tokenLogprobs == nil)
        _ = try await model.respond(to: request)
        #expect(server.requests.map { $0.json["logprobs"] } == [true, true, true, nil, nil])
    }

    @Test("another server error is not taken for a refusal of log-probabilities")
    func otherErrorsStay() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.serverError, status: 400)])
        var request = Fixtures.question
        request.options.logprobs = true
        await #expect(throws: LanguageModelError.self) { _ = try await model(server).respond(to: request) }
        #expect(server.requests.count == 1)
    }

    @Test("the context window a server reports in /models: vLLM, llama.cpp, LM Studio; none from llama-cpp-python or OpenAI")
    func reportedContext() async throws {
        let vllm = #"{"object":"list","data":[{"id":"qwen","object":"model","owned_by":"vllm","max_model_len":32768}]}"#
        let llamaCpp = #"{"object":"list","data":[{"id":"qwen.gguf","object":"model","meta":{"n_ctx_train":32768,"n_ctx":8192,"n_vocab":151936}}]}"#
        let lmStudio = #"{"object":"list","data":[{"id":"qwen","loaded_context_length":4096,"max_context_length":32768}]}"#
        let llamaCppPython = #"{"object":"list","data":[{"id":"qwen","object":"model","owned_by":"me","permissions":[]}]}"#
        let server = try ReplayHTTPServer([.json(vllm), .json(llamaCpp), .json(lmStudio), .json(llamaCppPython), .json("{}", status: 404)])
        let model = model(server)
        var windows: [Int?] = []
        for _ in 0..<5 { windows.append(await model.contextWindow()) }
        #expect(windows == [32_768, 8_192, 4_096, nil, nil])
        #expect(server.requests.allSatisfy { $0.method == "GET" && $0.target == "/v1/models" })
        let openAI = OpenAICompatibleModel(model: "gpt-4o-mini", transport: .asyncHTTPClient, apiKey: "k")
        #expect(await openAI.contextWindow() == nil)
    }

    @Test("Ollama gets the context in num_ctx and log-probabilities asked for, and its answer's are read")
    func ollama() async throws {
        let answer = #"""
            {"model":"qwen2.5-coder","created_at":"2025-11-20T10:00:00Z","message":{"role":"assistant","content":"SELECT 1"},"done":true,"done_reason":"stop","prompt_eval_count":20,"eval_count":2,"logprobs":[{"token":"SELECT","logprob":-0.01,"top_logprobs":[{"token":"SELECT","logprob":-0.01},{"token":"WITH","logprob":-4.6}]},{"token":" 1","logprob":-0.2,"top_logprobs":[]}]}
            """#
        let server = try ReplayHTTPServer([.json(answer)])
        let model = OllamaModel(model: "qwen2.5-coder", transport: .asyncHTTPClient, baseURL: server.url(""), timeout: .seconds(10))
        var request = Fixtures.question
        request.options.logprobs = true
        request.options.contextTokens = 8_192
        let response = try await model.respond(to: request)
        let sent = try #require(server.requests.first?.json)
        #expect(sent["options"]?["num_ctx"] == 8_192 && sent["logprobs"] == true && sent["top_logprobs"] == 2)
        #expect(response.tokenLogprobs == [
            TokenLogprob(token: "SELECT", logprob: -0.01, runnerUp: -4.6, runnerUpToken: "WITH"), TokenLogprob(token: " 1", logprob: -0.2),
        ])
    }
}
