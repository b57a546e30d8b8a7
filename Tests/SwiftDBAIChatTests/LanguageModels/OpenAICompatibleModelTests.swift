import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

/// Chat completions bodies as OpenAI and llama.cpp server send them.
enum OpenAIWire {
    static let toolCallAnswer = #"""
        {
          "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
          "object": "chat.completion",
          "created": 1741570283,
          "model": "gpt-4o-mini-2024-07-18",
          "choices": [
            {
              "index": 0,
              "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [
                  {
                    "id": "call_Xk2Yq7cXbN3Lr9Fz0aPqT1sD",
                    "type": "function",
                    "function": {
                      "name": "run_sql",
                      "arguments": "{\"sql\":\"SELECT COUNT(*) FROM albums\"}"
                    }
                  }
                ],
                "refusal": null,
                "annotations": []
              },
              "logprobs": null,
              "finish_reason": "tool_calls"
            }
          ],
          "usage": {
            "prompt_tokens": 82,
            "completion_tokens": 18,
            "total_tokens": 100,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {
              "reasoning_tokens": 0, "audio_tokens": 0,
              "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0
            }
          },
          "service_tier": "default",
          "system_fingerprint": "fp_06737a9306"
        }
        """#

    /// llama.cpp server's answer (`llama-server`), with its `timings` member.
    static let textAnswer = #"""
        {"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"There are 347 albums."}}],"created":1741570300,"model":"qwen2.5-coder-1.5b-instruct-q4_k_m.gguf","system_fingerprint":"b4867-f4c3dd5d","object":"chat.completion","usage":{"completion_tokens":8,"prompt_tokens":40,"total_tokens":48},"id":"chatcmpl-hGkIRmwPBJx8wUrnQ9yTjXMO2OrJ6SZ4","timings":{"prompt_n":40,"prompt_ms":311.2,"prompt_per_token_ms":7.78,"prompt_per_second":128.5,"predicted_n":8,"predicted_ms":201.6,"predicted_per_token_ms":25.2,"predicted_per_second":39.7}}
        """#

    static let contentFilterAnswer = #"""
        {"id":"chatcmpl-AzX1","object":"chat.completion","created":1741570400,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null},"logprobs":null,"finish_reason":"content_filter"}],"usage":{"prompt_tokens":20,"completion_tokens":0,"total_tokens":20}}
        """#

    static let refusalAnswer = #"""
        {"id":"chatcmpl-AzX2","object":"chat.completion","created":1741570401,"model":"gpt-4o-2024-08-06","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I'm sorry, I can't assist with that request."},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":10,"total_tokens":40}}
        """#

    static let serverError = #"""
        {
          "error": {
            "message": "The server had an error while processing your request. Sorry about that!",
            "type": "server_error",
            "param": null,
            "code": null
          }
        }
        """#

    static let rateLimitError = #"""
        {
            "error": {
                "message": "Rate limit reached for gpt-4o-mini in organization org-Tq3x on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
                "type": "requests",
                "param": null,
                "code": "rate_limit_exceeded"
            }
        }
        """#

    static let quotaError = #"""
        {
            "error": {
                "message": "You exceeded your current quota, please check your plan and billing details.",
                "type": "insufficient_quota",
                "param": null,
                "code": "insufficient_quota"
            }
        }
        """#

    static let invalidKeyError = #"""
        {
            "error": {
                "message": "Incorrect API key provided: sk-test-*****************2a7e. You can find your API key at https://platform.openai.com/account/api-keys.",
                "type": "invalid_request_error",
                "param": null,
                "code": "invalid_api_key"
            }
        }
        """#

    /// llama-cpp-python (FastAPI) rejecting the `json_schema` response format.
    static let llamaCppPythonFormatRejection = #"""
        {"detail":[{"type":"literal_error","loc":["body","response_format","type"],"msg":"Input should be 'text' or 'json_object'","input":"json_schema","ctx":{"expected":"'text' or 'json_object'"}}]}
        """#
}

@Suite("OpenAI-compatible chat completions")
struct OpenAICompatibleModelTests {
    typealias Fixtures = LanguageModelFixtures

    private func model(
        _ server: ReplayHTTPServer, apiKey: String? = Fixtures.apiKey,
        style: OpenAICompatibleModel.StructuredOutputStyle = .jsonSchema,
        capabilities: LanguageModelCapabilities = LanguageModelCapabilities(toolCalling: true, structuredOutput: true)
    ) -> OpenAICompatibleModel {
        OpenAICompatibleModel(
            model: "gpt-4o-mini", transport: .asyncHTTPClient, apiKey: apiKey, baseURL: server.url("v1"), structuredOutputStyle: style,
            capabilities: capabilities, timeout: .seconds(10), retryPolicy: Fixtures.fastRetry)
    }

    @Test("the request carries the model, a tool-call round trip, tools, json_schema and options; the key only in Authorization")
    func requestShape() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.toolCallAnswer)])
        _ = try await model(server).respond(to: Fixtures.toolRoundTrip)

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/chat/completions")
        #expect(request.headers["authorization"] == "Bearer \(Fixtures.apiKey)")
        #expect(request.headers["content-type"] == "application/json")
        #expect(!request.target.contains(Fixtures.apiKey))
        let expected: JSONValue = [
            "model": "gpt-4o-mini",
            "messages": [
                ["role": "system", "content": "You answer questions about the Chinook database."],
                ["role": "user", "content": "How many albums are there?"],
                [
                    "role": "assistant", "content": "",
                    "tool_calls": [
                        [
                            "id": "call_9Gz1", "type": "function",
                            "function": ["name": "run_sql", "arguments": #"{"sql":"SELECT COUNT(*) FROM albums"}"#],
                        ],
                    ],
                ],
                [
                    "role": "tool", "tool_call_id": "call_9Gz1", "name": "run_sql",
                    "content": #"{"columns":["COUNT(*)"],"rows":[[347]]}"#,
                ],
            ],
            "tools": [
                [
                    "type": "function",
                    "function": [
                        "name": "run_sql", "description": "Runs one read-only SQLite statement.",
                        "parameters": Fixtures.runSQLParameters,
                    ],
                ],
            ],
            "response_format": [
                "type": "json_schema",
                "json_schema": ["name": "answer", "schema": Fixtures.answerSchema, "strict": true],
            ],
            "temperature": 0.2,
            "max_tokens": 256,
            "stop": ["</answer>"],
        ]
        #expect(request.json == expected)
    }

    @Test("without a key no Authorization header is sent (local servers)")
    func noKeyNoHeader() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.textAnswer)])
        _ = try await model(server, apiKey: nil).respond(to: Fixtures.question)
        let request = try #require(server.requests.first)
        #expect(request.headers["authorization"] == nil)
        #expect(request.json["tools"] == nil)
        #expect(request.json["response_format"] == nil)
        #expect(request.json["temperature"] == nil)
        #expect(request.json["stop"] == nil)
    }

    @Test("the json_object style sends the schema as llama-cpp-python reads it")
    func jsonObjectStyle() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.textAnswer)])
        _ = try await model(server, style: .jsonObjectWithSchema).respond(to: Fixtures.toolRoundTrip)
        let request = try #require(server.requests.first)
        #expect(request.json["response_format"] == ["type": "json_object", "schema": Fixtures.answerSchema])
    }

    @Test("a server that rejects json_schema and asks for json_object gets json_object from then on")
    func jsonObjectFallback() async throws {
        let server = try ReplayHTTPServer([
            .json(OpenAIWire.llamaCppPythonFormatRejection, status: 422),
            .json(OpenAIWire.textAnswer),
            .json(OpenAIWire.textAnswer),
        ])
        let model = model(server)
        let first = try await model.respond(to: Fixtures.toolRoundTrip)
        #expect(first.text == "There are 347 albums.")
        _ = try await model.respond(to: Fixtures.toolRoundTrip)
        let formats = server.requests.map { $0.json["response_format"]?["type"] }
        #expect(formats == ["json_schema", "json_object", "json_object"])
    }

    @Test("structured output switched off sends no response_format; tools with tool calling off are refused before sending")
    func capabilitiesOff() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.textAnswer)])
        let noSchema = model(server, capabilities: LanguageModelCapabilities(toolCalling: true, structuredOutput: false))
        _ = try await noSchema.respond(to: Fixtures.toolRoundTrip)
        #expect(server.requests.first?.json["response_format"] == nil)

        let noTools = model(server, capabilities: .textOnly)
        let error = await caughtModelError(noTools, Fixtures.toolRoundTrip)
        guard case .invalidConfiguration(let message)? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains("tool calling"))
        #expect(server.requests.count == 1)
    }

    @Test("a tool call in the answer becomes a LanguageModelToolCall with the provider's id and argument text")
    func toolCallResponse() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.toolCallAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response.text == "")
        #expect(response.finishReason == "tool_calls")
        #expect(response.toolCalls == [
            LanguageModelToolCall(id: "call_Xk2Yq7cXbN3Lr9Fz0aPqT1sD", name: "run_sql", arguments: #"{"sql":"SELECT COUNT(*) FROM albums"}"#)
        ])
    }

    @Test("a text answer from llama.cpp server is read with its finish reason")
    func textResponse() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.textAnswer)])
        let response = try await model(server, apiKey: nil).respond(to: Fixtures.question)
        #expect(response == LanguageModelResponse(text: "There are 347 albums.", finishReason: "stop", usage: TokenUsage(promptTokens: 40, completionTokens: 8)))
    }

    @Test("OpenAI's usage is read with its cached prompt tokens")
    func usageWithCache() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.toolCallAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response.usage == TokenUsage(promptTokens: 82, completionTokens: 18, cachedPromptTokens: 0))
    }

    @Test("a content_filter finish and a refusal are refused")
    func refusals() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.contentFilterAnswer), .json(OpenAIWire.refusalAnswer)])
        let model = model(server)
        let filtered = await caughtModelError(model, Fixtures.question)
        guard case .refused(_, let reason)? = filtered else {
            Issue.record("expected refused, got \(String(describing: filtered))")
            return
        }
        #expect(reason.contains("content_filter"))
        let refused = await caughtModelError(model, Fixtures.question)
        #expect(refused == .refused(provider: "The OpenAI-compatible server at \(server.url("v1").absoluteString)",
                                    reason: "I'm sorry, I can't assist with that request."))
    }

    @Test("an exhausted quota (429 insufficient_quota) is not retried and keeps OpenAI's message")
    func quotaNotRetried() async throws {
        let server = try ReplayHTTPServer([.json(OpenAIWire.quotaError, status: 429), .json(OpenAIWire.textAnswer)])
        let error = await caughtModelError(model(server), Fixtures.question)
        guard case .httpStatus(_, 429, let message)? = error else {
            Issue.record("expected httpStatus 429, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("You exceeded your current quota"))
        #expect(server.requests.count == 1)
    }

    @Test("a key echoed back by the server, whole or masked, never reaches the error")
    func keyScrubbedFromErrors() async throws {
        let server = try ReplayHTTPServer([
            .json(OpenAIWire.invalidKeyError, status: 401),
            .json(#"{"error": {"message": "proxy rejected header Authorization: Bearer \#(Fixtures.apiKey)"}}"#, status: 403),
        ])
        let model = model(server)
        for status in [401, 403] {
            let error = await caughtModelError(model, Fixtures.question)
            guard case .httpStatus(_, let received, let message)? = error else {
                Issue.record("expected httpStatus, got \(String(describing: error))")
                continue
            }
            #expect(received == status)
            #expect(!message.contains(Fixtures.apiKey))
            #expect(!message.contains("sk-test"))
            #expect(message.contains("[redacted]"))
            #expect(!(error?.description.contains("sk-test") ?? true))
        }
    }

    @Test("names: openai: against OpenAI, openai-compatible: elsewhere")
    func names() throws {
        #expect(OpenAICompatibleModel(model: "gpt-4o-mini", transport: .asyncHTTPClient, apiKey: "k").name == "openai:gpt-4o-mini")
        let local = try #require(URL(string: "http://127.0.0.1:8088/v1"))
        #expect(OpenAICompatibleModel(model: "qwen", transport: .asyncHTTPClient, baseURL: local).name == "openai-compatible:qwen")
    }
}
