import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

/// `generateContent` bodies as the Gemini API sends them.
enum GeminiWire {
    static let functionCallAnswer = #"""
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {
                    "functionCall": {
                      "name": "run_sql",
                      "args": {"sql": "SELECT COUNT(*) FROM albums"}
                    },
                    "thoughtSignature": "CiQBVKhc7pUe8Wn3F2Vd0qGr5oH4x1yJ3mK9sT0bLw=="
                  }
                ],
                "role": "model"
              },
              "finishReason": "STOP",
              "index": 0
            }
          ],
          "usageMetadata": {
            "promptTokenCount": 120,
            "candidatesTokenCount": 18,
            "totalTokenCount": 190,
            "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 120}],
            "thoughtsTokenCount": 52
          },
          "modelVersion": "gemini-2.5-flash",
          "responseId": "mFHHaNrQBdqsgLUPqLKP8Qo"
        }
        """#

    static let textAnswer = #"""
        {
          "candidates": [
            {
              "content": {
                "parts": [
                  {"text": "Counting rows in the albums table.", "thought": true},
                  {"text": "There are 347 "},
                  {"text": "albums."}
                ],
                "role": "model"
              },
              "finishReason": "STOP",
              "avgLogprobs": -0.0421,
              "index": 0
            }
          ],
          "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 7, "totalTokenCount": 19},
          "modelVersion": "gemini-2.5-flash",
          "responseId": "nFHHaJ2kC4OqgLUP4u2d8Q4"
        }
        """#

    static let blockedPrompt = #"""
        {
          "promptFeedback": {
            "blockReason": "SAFETY",
            "safetyRatings": [
              {"category": "HARM_CATEGORY_SEXUALLY_EXPLICIT", "probability": "NEGLIGIBLE"},
              {"category": "HARM_CATEGORY_HATE_SPEECH", "probability": "HIGH"},
              {"category": "HARM_CATEGORY_HARASSMENT", "probability": "NEGLIGIBLE"},
              {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "NEGLIGIBLE"}
            ]
          },
          "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9},
          "modelVersion": "gemini-2.5-flash",
          "responseId": "oFHHaK3lD5OrgLUP5v3e8Q5"
        }
        """#

    static let recitationFinish = #"""
        {"candidates":[{"content":{"role":"model"},"finishReason":"RECITATION","index":0}],"usageMetadata":{"promptTokenCount":14,"totalTokenCount":14},"modelVersion":"gemini-2.5-flash","responseId":"pFHH"}
        """#

    static let invalidKey = #"""
        {
          "error": {
            "code": 400,
            "message": "API key not valid. Please pass a valid API key.",
            "status": "INVALID_ARGUMENT",
            "details": [
              {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "API_KEY_INVALID",
                "domain": "googleapis.com",
                "metadata": {"service": "generativelanguage.googleapis.com"}
              }
            ]
          }
        }
        """#

    static let serverError = #"""
        {
          "error": {
            "code": 500,
            "message": "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
            "status": "INTERNAL"
          }
        }
        """#

    static let rateLimitError = #"""
        {
          "error": {
            "code": 429,
            "message": "Resource has been exhausted (e.g. check quota).",
            "status": "RESOURCE_EXHAUSTED"
          }
        }
        """#
}

@Suite("Gemini generateContent")
struct GeminiModelTests {
    typealias Fixtures = LanguageModelFixtures

    private func model(_ server: ReplayHTTPServer, model name: String = "gemini-2.5-flash") -> GeminiModel {
        GeminiModel(
            model: name, transport: .asyncHTTPClient, apiKey: Fixtures.apiKey, baseURL: server.url("v1beta"), timeout: .seconds(10),
            retryPolicy: Fixtures.fastRetry)
    }

    @Test("the request carries systemInstruction, user/model contents, functionCall/functionResponse parts, declarations and generationConfig; the key in x-goog-api-key, never in the URL")
    func requestShape() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.textAnswer)])
        _ = try await model(server).respond(to: Fixtures.toolRoundTrip)

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/v1beta/models/gemini-2.5-flash:generateContent")
        #expect(request.headers["x-goog-api-key"] == Fixtures.apiKey)
        #expect(!request.target.contains(Fixtures.apiKey))
        #expect(!request.target.contains("key="))
        let expected: JSONValue = [
            "systemInstruction": ["parts": [["text": "You answer questions about the Chinook database."]]],
            "contents": [
                ["role": "user", "parts": [["text": "How many albums are there?"]]],
                [
                    "role": "model",
                    "parts": [
                        [
                            "functionCall": [
                                "name": "run_sql", "id": "call_9Gz1", "args": ["sql": "SELECT COUNT(*) FROM albums"],
                            ],
                        ],
                    ],
                ],
                [
                    "role": "user",
                    "parts": [
                        [
                            "functionResponse": [
                                "name": "run_sql", "id": "call_9Gz1",
                                "response": ["content": #"{"columns":["COUNT(*)"],"rows":[[347]]}"#],
                            ],
                        ],
                    ],
                ],
            ],
            "tools": [
                [
                    "functionDeclarations": [
                        [
                            "name": "run_sql", "description": "Runs one read-only SQLite statement.",
                            // additionalProperties is not part of Gemini's schema subset.
                            "parameters": [
                                "type": "object",
                                "properties": ["sql": ["type": "string", "description": "One SQLite statement."]],
                                "required": ["sql"],
                            ],
                        ],
                    ],
                ],
            ],
            "generationConfig": [
                "temperature": 0.2,
                "maxOutputTokens": 256,
                "stopSequences": ["</answer>"],
                "responseMimeType": "application/json",
                "responseSchema": [
                    "type": "object",
                    "properties": ["summary": ["type": "string"], "row_count": ["type": "integer", "nullable": true]],
                    "required": ["summary", "row_count"],
                ],
            ],
        ]
        #expect(request.json == expected)
    }

    @Test("a functionCall becomes a LanguageModelToolCall whose id carries the thought signature back to Gemini")
    func functionCallRoundTrip() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.functionCallAnswer), .json(GeminiWire.textAnswer)])
        let model = model(server)
        let first = try await model.respond(to: Fixtures.question)
        #expect(first.finishReason == "STOP")
        let call = try #require(first.toolCalls.first)
        #expect(first.toolCalls.count == 1)
        #expect(call.name == "run_sql")
        #expect(call.arguments == #"{"sql":"SELECT COUNT(*) FROM albums"}"#)

        let followUp = LanguageModelRequest(messages: Fixtures.question.messages + [
            .assistant("", toolCalls: [call]), .tool("347", callID: call.id),
        ])
        _ = try await model.respond(to: followUp)
        let contents = try #require(server.requests.last?.json["contents"]?.arrayValue)
        #expect(contents.count == 3)
        #expect(contents[1] == [
            "role": "model",
            "parts": [
                [
                    "functionCall": ["name": "run_sql", "args": ["sql": "SELECT COUNT(*) FROM albums"]],
                    "thoughtSignature": "CiQBVKhc7pUe8Wn3F2Vd0qGr5oH4x1yJ3mK9sT0bLw==",
                ],
            ],
        ])
        #expect(contents[2] == [
            "role": "user",
            "parts": [["functionResponse": ["name": "run_sql", "response": ["content": "347"]]]],
        ])
    }

    @Test("Gemini 3 function calls without a signature get Google's placeholder signature")
    func placeholderSignature() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.textAnswer)])
        _ = try await model(server, model: "gemini-3-pro-preview").respond(to: Fixtures.toolRoundTrip)
        let part = server.requests.first?.json["contents"]?.arrayValue?[1]["parts"]?.arrayValue?.first
        #expect(part?["thoughtSignature"] == "skip_thought_signature_validator")
    }

    @Test("text parts are joined, thought parts left out")
    func textResponse() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.textAnswer)])
        let response = try await model(server).respond(to: Fixtures.question)
        #expect(response == LanguageModelResponse(text: "There are 347 albums.", finishReason: "STOP", usage: TokenUsage(promptTokens: 12, completionTokens: 7)))
        let sent = try #require(server.requests.first).json
        #expect(sent["tools"] == nil)
        #expect(sent["generationConfig"] == nil)
    }

    @Test("a blocked prompt and a RECITATION finish are refused")
    func refusals() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.blockedPrompt), .json(GeminiWire.recitationFinish)])
        let model = model(server)
        let blocked = await caughtModelError(model, Fixtures.question)
        #expect(blocked == .refused(provider: "Gemini", reason: "the prompt was blocked (SAFETY)"))
        let recited = await caughtModelError(model, Fixtures.question)
        #expect(recited == .refused(provider: "Gemini", reason: "the answer was blocked (RECITATION)"))
    }

    @Test("an invalid key keeps Gemini's message and status")
    func invalidKey() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.invalidKey, status: 400)])
        let error = await caughtModelError(model(server), Fixtures.question)
        #expect(error == .httpStatus(
            provider: "Gemini", status: 400, message: "API key not valid. Please pass a valid API key. (INVALID_ARGUMENT)"))
        #expect(server.requests.count == 1)
    }

    @Test("a tool without parameters is declared without a parameters schema")
    func parameterlessTool() async throws {
        let server = try ReplayHTTPServer([.json(GeminiWire.textAnswer)])
        let tool = LanguageModelTool(
            name: "list_tables", description: "Lists the tables.", parameters: ["type": "object", "properties": [:]])
        _ = try await model(server).respond(to: LanguageModelRequest(messages: [.user("Tables?")], tools: [tool]))
        #expect(server.requests.first?.json["tools"] == [
            ["functionDeclarations": [["name": "list_tables", "description": "Lists the tables."]]]
        ])
    }
}
