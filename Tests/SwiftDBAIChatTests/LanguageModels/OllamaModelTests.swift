import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

/// `/api/chat` bodies as Ollama sends them with `"stream": false`.
enum OllamaWire {
    static let toolCallAnswer = #"""
        {
          "model": "qwen2.5-coder:7b",
          "created_at": "2025-06-12T14:13:43.416799Z",
          "message": {
            "role": "assistant",
            "content": "",
            "tool_calls": [
              {
                "function": {
                  "name": "run_sql",
                  "arguments": {"sql": "SELECT COUNT(*) FROM albums"}
                }
              }
            ]
          },
          "done_reason": "stop",
          "done": true,
          "total_duration": 2190066416,
          "load_duration": 16720333,
          "prompt_eval_count": 187,
          "prompt_eval_duration": 250000000,
          "eval_count": 27,
          "eval_duration": 1900000000
        }
        """#

    static let textAnswer = #"""
        {"model":"qwen2.5-coder:7b","created_at":"2025-06-12T14:14:02.118523Z","message":{"role":"assistant","content":"There are 347 albums."},"done_reason":"stop","done":true,"total_duration":812337458,"load_duration":10456791,"prompt_eval_count":31,"prompt_eval_duration":120000000,"eval_count":9,"eval_duration":650000000}
        """#

    static let modelNotFound = #"""
        {"error":"model \"qwen2.5-coder:7b\" not found, try pulling it first"}
        """#

    static let serverError = #"""
        {"error":"llama runner process has terminated: signal: killed"}
        """#
}

@Suite("Ollama native chat")
struct OllamaModelTests {
    typealias Fixtures = LanguageModelFixtures

    private func model(_ server: ReplayHTTPServer, apiKey: String? = nil) -> OllamaModel {
        OllamaModel(
            model: "qwen2.5-coder:7b", transport: .asyncHTTPClient, apiKey: apiKey, baseURL: server.baseURL, timeout: .seconds(10),
            retryPolicy: Fixtures.fastRetry)
    }

    @Test("the request has stream false, tool-call arguments as objects, tool_name on results, tools, format and options")
    func requestShape() async throws {
        let server = try ReplayHTTPServer([.json(OllamaWire.textAnswer)])
        _ = try await model(server).respond(to: Fixtures.toolRoundTrip)

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/api/chat")
        #expect(request.headers["authorization"] == nil)
        let expected: JSONValue = [
            "model": "qwen2.5-coder:7b",
            "stream": false,
            "messages": [
                ["role": "system", "content": "You answer questions about the Chinook database."],
                ["role": "user", "content": "How many albums are there?"],
                [
                    "role": "assistant", "content": "",
                    "tool_calls": [
                        [
                            "id": "call_9Gz1",
                            "function": ["name": "run_sql", "arguments": ["sql": "SELECT COUNT(*) FROM albums"]],
                        ],
                    ],
                ],
                [
                    "role": "tool", "content": #"{"columns":["COUNT(*)"],"rows":[[347]]}"#, "tool_name": "run_sql",
                    "tool_call_id": "call_9Gz1",
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
            "format": Fixtures.answerSchema,
            "options": ["temperature": 0.2, "num_predict": 256, "stop": ["</answer>"]],
        ]
        #expect(request.json == expected)
    }

    @Test("a key, when given, goes in Authorization and not in the URL")
    func keyHeader() async throws {
        let server = try ReplayHTTPServer([.json(OllamaWire.textAnswer)])
        _ = try await model(server, apiKey: Fixtures.apiKey).respond(to: Fixtures.question)
        let request = try #require(server.requests.first)
        #expect(request.headers["authorization"] == "Bearer \(Fixtures.apiKey)")
        #expect(!request.target.contains(Fixtures.apiKey))
        #expect(request.json["options"] == nil)
        #expect(request.json["format"] == nil)
    }

    @Test("tool calls with object arguments become ToolCalls with JSON text and a generated id")
    func toolCallResponse() async throws {
        let server = try ReplayHTTPServer([.json(OllamaWire.toolCallAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response.text == "")
        #expect(response.finishReason == "stop")
        let call = try #require(response.toolCalls.first)
        #expect(response.toolCalls.count == 1)
        #expect(call.name == "run_sql")
        #expect(call.arguments == #"{"sql":"SELECT COUNT(*) FROM albums"}"#)
        #expect(call.id.hasPrefix("call_") && call.id.count > 10)
    }

    @Test("a text answer is read with its done reason")
    func textResponse() async throws {
        let server = try ReplayHTTPServer([.json(OllamaWire.textAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response == LanguageModelResponse(text: "There are 347 albums.", finishReason: "stop", usage: TokenUsage(promptTokens: 31, completionTokens: 9)))
    }

    @Test("a missing model is a 404 with Ollama's message")
    func modelNotFound() async throws {
        let server = try ReplayHTTPServer([.json(OllamaWire.modelNotFound, status: 404)])
        let error = await caughtModelError(model(server), Fixtures.question)
        #expect(error == .httpStatus(
            provider: "Ollama at \(server.baseURL.absoluteString)", status: 404,
            message: #"model "qwen2.5-coder:7b" not found, try pulling it first"#))
        #expect(server.requests.count == 1)
    }
}
