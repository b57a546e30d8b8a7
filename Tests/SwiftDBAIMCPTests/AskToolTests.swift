import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAIChat
@testable import SwiftDBAIMCP

/// A model that answers every SQL request with the same statement and every summary with a sentence.
struct FixedAnswerModel: LanguageModel {
    let name = "fixed"
    let capabilities = LanguageModelCapabilities.textOnly
    let sql: String

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let last = request.messages.last?.content ?? ""
        return LanguageModelResponse(text: last.contains("<data>") ? "Here is the answer." : sql)
    }
}

@Suite("dbai-mcp ask")
struct AskToolTests {
    @Test("ask is listed only with a language model, and answers with SQL, rows and a conversation id")
    func askWithModel() async throws {
        let fixture = try ServerFixture()
        let without = try await fixture.connect(fixture.configuration())
        #expect(!(try await without.listTools().tools.map(\.name).contains("ask")))
        await #expect(throws: MCPError.self) { _ = try await without.call("ask", ["question": "How many artists?"]) }

        var configuration = fixture.configuration()
        configuration.languageModel = FixedAnswerModel(sql: "SELECT count(*) AS artists FROM Artist")
        let client = try await fixture.connect(configuration)
        #expect(try await client.listTools().tools.map(\.name).contains("ask"))
        let result = try await client.call("ask", ["question": "How many artists?"])
        let structured = try #require(result.structuredContent?.objectValue)
        #expect(structured["answer"] == "Here is the answer.")
        #expect(structured["sql"] == "SELECT count(*) AS artists FROM Artist")
        #expect(structured["rows"] == [[275]])
        #expect(structured["conversation_id"]?.stringValue?.isEmpty == false)
        // Every answer says how sure it is, and why; this model gives no token probabilities, and
        // without them the standard weights have other candidates vote (here the same statement).
        let level = try #require(structured["confidence"]?.stringValue)
        #expect(["high", "low"].contains(level))
        let reasons = try #require(structured["confidence_reasons"]?.arrayValue)
        #expect(reasons.allSatisfy { $0.objectValue?["code"]?.stringValue != nil && $0.objectValue?["message"]?.stringValue != nil })
        let evidence = try #require(structured["confidence_evidence"]?.objectValue)
        #expect(evidence["token_logprob_min"] == nil && evidence["empty_result"] == false)
        #expect(evidence["tables_read"] == 1)
        #expect(evidence["candidates_written"] == 3 && evidence["candidates_agreeing"] == 3)
        #expect(reasons.contains { $0.objectValue?["code"] == "candidates_agree" })
        #expect(structured["candidates"]?.arrayValue?.count == 3)
        let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        #expect(text.contains("Confidence: \(level)"))

        // A strict client sends conversation_id null or "" for a new conversation.
        for notGiven: Value in [.null, ""] {
            let fresh = try await client.call("ask", ["question": "How many artists?", "conversation_id": notGiven])
            #expect(fresh.isError != true)
            let id = fresh.structuredContent?.objectValue?["conversation_id"]?.stringValue
            #expect(id != nil && id != structured["conversation_id"]?.stringValue)
        }
    }

    @Test("a write written by the model is refused under readonly, and nothing changes")
    func askRefusesWrites() async throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration()
        configuration.languageModel = FixedAnswerModel(sql: "DELETE FROM Artist")
        let client = try await fixture.connect(configuration)
        let result = try await client.call("ask", ["question": "Delete every artist"])
        #expect(result.isError == true)
        #expect(result._meta?.fields[ToolRegistry.errorCodeKey] == "refused")
        #expect(try fixture.count("Artist") == 275)
    }

    @Test("the client's own model answers through sampling when the server has none")
    func sampling() async throws {
        let fixture = try ServerFixture()
        let server = try DBAIServer(configuration: fixture.configuration())
        let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
        Task { try await server.run(transport: serverSide) }
        let client = Client(name: "tests", version: "1", capabilities: .init(sampling: .init()))
        await client.withSamplingHandler { parameters in
            let asksSummary = parameters.messages.last.map { "\($0.content)" }?.contains("<data>") == true
            return CreateSamplingMessage.Result(
                model: "client-model", stopReason: .endTurn, role: .assistant,
                content: .text(asksSummary ? "Eleven genres... no, 25." : "SELECT count(*) FROM Genre"))
        }
        try await client.connect(transport: clientSide)
        #expect(try await client.listTools().tools.map(\.name).contains("ask"))
        let result = try await client.call("ask", ["question": "How many genres?"])
        #expect(result.structuredContent?.objectValue?["rows"] == [[25]])
        #expect(result.structuredContent?.objectValue?["sql"] == "SELECT count(*) FROM Genre")
    }
}
