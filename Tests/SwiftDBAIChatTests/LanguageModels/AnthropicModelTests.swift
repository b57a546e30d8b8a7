import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

/// Messages API bodies as Anthropic sends them.
enum AnthropicWire {
    static let toolUseAnswer = #"""
        {
          "id": "msg_01Aq9w938a90dw8q",
          "type": "message",
          "role": "assistant",
          "model": "claude-sonnet-4-5-20250929",
          "content": [
            {"type": "text", "text": "I'll count the albums."},
            {
              "type": "tool_use",
              "id": "toolu_01A09q90qw90lq917835lq9",
              "name": "run_sql",
              "input": {"sql": "SELECT COUNT(*) FROM albums"}
            }
          ],
          "stop_reason": "tool_use",
          "stop_sequence": null,
          "usage": {
            "input_tokens": 472,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 64,
            "service_tier": "standard"
          }
        }
        """#

    static let textAnswer = #"""
        {"id":"msg_013Zva2CMHLNnXjNJJKqJ2EF","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"There are 347 albums."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":25,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":9,"service_tier":"standard"}}
        """#

    /// The forced `answer` tool filled in, as Claude answers a `tool_choice` of type `tool`.
    static let structuredAnswer = #"""
        {"id":"msg_01Xq","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"toolu_01Vd","name":"answer","input":{"summary":"There are 347 albums.","row_count":1}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":512,"output_tokens":41}}
        """#

    static let wrappedStructuredAnswer = #"""
        {"id":"msg_01Xr","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"toolu_01Ve","name":"tables","input":{"value":["albums","artists"]}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":300,"output_tokens":20}}
        """#

    static let refusalAnswer = #"""
        {"id":"msg_01Rf","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":"refusal","stop_sequence":null,"usage":{"input_tokens":40,"output_tokens":0}}
        """#

    static let overloaded = #"""
        {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}
        """#

    static let serverError = #"""
        {"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fz"}
        """#

    static let rateLimitError = #"""
        {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization (b3f9) of 50 input tokens per minute."},"request_id":"req_011CSHoF"}
        """#
}

@Suite("Anthropic Messages")
struct AnthropicModelTests {
    typealias Fixtures = LanguageModelFixtures

    private func model(_ server: ReplayHTTPServer, retryPolicy: RetryPolicy = Fixtures.fastRetry) -> AnthropicModel {
        AnthropicModel(
            model: "claude-sonnet-4-5", transport: .asyncHTTPClient, apiKey: Fixtures.apiKey, baseURL: server.baseURL, timeout: .seconds(10),
            retryPolicy: retryPolicy)
    }

    @Test("the request carries system on top, tool_use and tool_result blocks, tools, the forced answer tool; the key in x-api-key")
    func requestShape() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.toolUseAnswer)])
        _ = try await model(server).respond(to: Fixtures.toolRoundTrip)

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/messages")
        #expect(request.headers["x-api-key"] == Fixtures.apiKey)
        #expect(request.headers["anthropic-version"] == "2023-06-01")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["authorization"] == nil)
        #expect(!request.target.contains(Fixtures.apiKey))
        let expected: JSONValue = [
            "model": "claude-sonnet-4-5",
            "max_tokens": 256,
            "system": "You answer questions about the Chinook database.",
            "messages": [
                ["role": "user", "content": [["type": "text", "text": "How many albums are there?"]]],
                [
                    "role": "assistant",
                    "content": [
                        [
                            "type": "tool_use", "id": "call_9Gz1", "name": "run_sql",
                            "input": ["sql": "SELECT COUNT(*) FROM albums"],
                        ],
                    ],
                ],
                [
                    "role": "user",
                    "content": [
                        [
                            "type": "tool_result", "tool_use_id": "call_9Gz1",
                            "content": #"{"columns":["COUNT(*)"],"rows":[[347]]}"#,
                        ],
                    ],
                ],
            ],
            "tools": [
                [
                    "name": "run_sql", "description": "Runs one read-only SQLite statement.",
                    "input_schema": Fixtures.runSQLParameters,
                ],
                [
                    "name": "answer",
                    "description": "Give your final answer as the input of this tool; it must match the schema.",
                    "input_schema": Fixtures.answerSchema,
                ],
            ],
            "tool_choice": ["type": "any"],
            "temperature": 0.2,
            "stop_sequences": ["</answer>"],
        ]
        #expect(request.json == expected)
    }

    @Test("structured output alone forces the answer tool, and its input comes back as JSON text")
    func structuredOutput() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.structuredAnswer)])
        let request = LanguageModelRequest(
            messages: [.user("How many albums are there?")],
            responseFormat: .jsonSchema(name: "answer", schema: Fixtures.answerSchema))
        let response = try await model(server).respond(to: request)

        let sent = try #require(server.requests.first).json
        #expect(sent["tool_choice"] == ["type": "tool", "name": "answer"])
        #expect(sent["max_tokens"] == 1024)
        #expect(sent["system"] == nil)
        #expect(response.toolCalls.isEmpty)
        #expect(response.finishReason == "end_turn")
        #expect(try JSONValue(parsing: response.text) == ["summary": "There are 347 albums.", "row_count": 1])
    }

    @Test("a schema whose root is not an object is wrapped as {value: …} and unwrapped")
    func wrappedSchema() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.wrappedStructuredAnswer)])
        let schema: JSONValue = ["type": "array", "items": ["type": "string"]]
        let request = LanguageModelRequest(
            messages: [.user("Which tables matter?")], responseFormat: .jsonSchema(name: "tables", schema: schema))
        let response = try await model(server).respond(to: request)
        let sent = try #require(server.requests.first).json
        #expect(sent["tools"]?.arrayValue?.first?["input_schema"]
            == ["type": "object", "properties": ["value": schema], "required": ["value"]])
        #expect(response.text == #"["albums","artists"]"#)
    }

    @Test("text and tool_use blocks become the text and a LanguageModelToolCall whose arguments are the input as JSON text")
    func toolCallResponse() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.toolUseAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response.text == "I'll count the albums.")
        #expect(response.finishReason == "tool_use")
        #expect(response.toolCalls == [
            LanguageModelToolCall(id: "toolu_01A09q90qw90lq917835lq9", name: "run_sql", arguments: #"{"sql":"SELECT COUNT(*) FROM albums"}"#)
        ])
    }

    @Test("prompt tokens count the cached and newly cached input too")
    func usageWithCache() async throws {
        let answer = #"{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"347"}],"stop_reason":"end_turn","usage":{"input_tokens":25,"cache_creation_input_tokens":100,"cache_read_input_tokens":2000,"output_tokens":3}}"#
        let server = try ReplayHTTPServer([.json(answer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response.usage == TokenUsage(promptTokens: 2125, completionTokens: 3, cachedPromptTokens: 2000))
    }

    @Test("a text answer is read with its stop reason")
    func textResponse() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.textAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response == LanguageModelResponse(
            text: "There are 347 albums.", finishReason: "end_turn",
            usage: TokenUsage(promptTokens: 25, completionTokens: 9, cachedPromptTokens: 0)))
        #expect(server.requests.first?.json["system"] == "Be brief.")
    }

    @Test("consecutive tool results travel in one user turn, and a user follow-up joins it")
    func toolResultsMerged() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.textAnswer)])
        let calls = [
            LanguageModelToolCall(id: "toolu_1", name: "run_sql", arguments: #"{"sql":"SELECT 1"}"#),
            LanguageModelToolCall(id: "toolu_2", name: "run_sql", arguments: "not json"),
        ]
        let request = LanguageModelRequest(messages: [
            .user("Compare."), .assistant("Two queries.", toolCalls: calls),
            .tool("1", callID: "toolu_1"), .tool("2", callID: "toolu_2"), .user("And?"),
        ])
        _ = try await model(server).respond(to: request)
        let messages = try #require(server.requests.first?.json["messages"]?.arrayValue)
        #expect(messages.count == 3)
        #expect(messages[1]["content"]?.arrayValue?.count == 3)
        #expect(messages[1]["content"]?.arrayValue?[2]["input"] == [:])
        #expect(messages[2] == [
            "role": "user",
            "content": [
                ["type": "tool_result", "tool_use_id": "toolu_1", "content": "1"],
                ["type": "tool_result", "tool_use_id": "toolu_2", "content": "2"],
                ["type": "text", "text": "And?"],
            ],
        ])
    }

    @Test("529 overloaded is retried, and when it persists the error keeps Anthropic's message and type")
    func overloaded() async throws {
        let recovering = try ReplayHTTPServer([.json(AnthropicWire.overloaded, status: 529), .json(AnthropicWire.textAnswer)])
        let response = try await model(recovering).respond(to: Fixtures.question)
        #expect(response.text == "There are 347 albums.")
        #expect(recovering.requests.count == 2)

        let persisting = try ReplayHTTPServer([], whenExhausted: .json(AnthropicWire.overloaded, status: 529))
        let error = await caughtModelError(model(persisting), Fixtures.question)
        #expect(error == .httpStatus(provider: "Anthropic", status: 529, message: "Overloaded (overloaded_error)"))
        #expect(persisting.requests.count == 3)
    }

    @Test("stop_reason refusal is refused")
    func refusal() async throws {
        let server = try ReplayHTTPServer([.json(AnthropicWire.refusalAnswer)])
        let error = await caughtModelError(model(server), Fixtures.question)
        guard case .refused(let provider, _)? = error else {
            Issue.record("expected refused, got \(String(describing: error))")
            return
        }
        #expect(provider == "Anthropic")
    }
}
