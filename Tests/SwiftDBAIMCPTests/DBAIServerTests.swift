import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAIChat
@testable import SwiftDBAIMCP

/// A copy of the bundled Chinook database in a temporary folder, and a server connected to an
/// in-process client.
final class ServerFixture: Sendable {
    let folder: URL
    let path: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-mcp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("chinook.sqlite").path
        try FileManager.default.copyItem(atPath: Self.examplePath, toPath: path)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `Examples/chinook.sqlite` of the repository.
    static var examplePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/chinook.sqlite").path
    }

    /// A configuration that leaves SQLite's process-wide heap limit alone: the tests of every
    /// suite share one process, and 64 MiB for all their connections at once made unrelated
    /// tests fail with "out of memory". The e2e tests check the limit.
    func configuration(_ allowlist: OperationAllowlist = .readOnly) -> DBAIServerConfiguration {
        DBAIServerConfiguration(databasePath: path, allowlist: allowlist, sqliteMemoryLimit: nil)
    }

    /// Starts the server on an in-memory transport and returns a connected client.
    func connect(_ configuration: DBAIServerConfiguration) async throws -> Client {
        let server = try DBAIServer(configuration: configuration)
        let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
        Task { try await server.run(transport: serverSide) }
        let client = Client(name: "tests", version: "1")
        try await client.connect(transport: clientSide)
        return client
    }

    func count(_ table: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}

extension Client {
    func call(_ name: String, _ arguments: [String: Value]) async throws -> CallTool.Result {
        try await send(CallTool.request(.init(name: name, arguments: arguments))).value
    }
}

@Suite("dbai-mcp server")
struct DBAIServerTests {
    @Test("tools are listed by allowlist", arguments: [
        (OperationAllowlist.readOnly, ["describe_schema", "query", "export", "aggregate"]),
        (.standard, ["describe_schema", "query", "export", "aggregate", "insert", "update"]),
        (.unrestricted, ["describe_schema", "query", "export", "aggregate", "insert", "update", "delete"]),
        (try OperationAllowlist(parsing: "select,delete"), ["describe_schema", "query", "export", "aggregate", "delete"]),
    ])
    func listing(allowlist: OperationAllowlist, expected: [String]) {
        #expect(ToolRegistry(allowlist: allowlist).listTools(ToolAvailability(hasLanguageModel: false)).map(\.name) == expected)
    }

    @Test("every tool has input and output schemas and annotations")
    func definitions() {
        for tool in ToolRegistry(allowlist: .unrestricted).listTools(.everything) {
            #expect(tool.inputSchema.objectValue?["type"] == "object", "\(tool.name)")
            #expect(tool.outputSchema?.objectValue?["type"] == "object", "\(tool.name)")
            #expect(tool.annotations.openWorldHint == false, "\(tool.name)")
            #expect(tool.annotations.readOnlyHint == (tool.name == "describe_schema" || tool.name == "query" || tool.name == "aggregate"))
        }
    }

    @Test("calling a tool the allowlist disables is a protocol error that names the flag")
    func disabledTool() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.connect(fixture.configuration(.readOnly))
        let error = await #expect(throws: MCPError.self) {
            _ = try await client.call("delete", ["table": "Track", "where": ["TrackId": 1]])
        }
        #expect(error?.localizedDescription.contains("--allow unrestricted") == true)
        #expect(try fixture.count("Track") == 3503)
    }

    @Test("a delete without elicitation returns a preview and a token; the token runs it once")
    func tokenFlow() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.connect(fixture.configuration(.unrestricted))
        let arguments: [String: Value] = ["table": "InvoiceLine", "where": ["InvoiceId": 1]]
        let first = try await client.call("delete", arguments)
        #expect(first.isError != true)
        let structured = try #require(first.structuredContent?.objectValue)
        #expect(structured["confirmation_required"] == true)
        #expect(structured["preview"]?.objectValue?["rows_affected"] == 2)
        #expect(structured["preview"]?.objectValue?["rows"]?.arrayValue?.count == 2)
        let token = try #require(structured["confirmation_token"]?.stringValue)
        #expect(try fixture.count("InvoiceLine") == 2240)

        var other = arguments
        other["where"] = ["InvoiceId": 2]
        other["confirm"] = .string(token)
        let wrongStatement = try await client.call("delete", other)
        #expect(wrongStatement.isError == true)
        #expect(try fixture.count("InvoiceLine") == 2240)

        var confirmed = arguments
        confirmed["confirm"] = .string(token)
        let done = try await client.call("delete", confirmed)
        #expect(done.isError != true)
        #expect(done.structuredContent?.objectValue?["rows_affected"] == 2)
        #expect(try fixture.count("InvoiceLine") == 2238)

        let reused = try await client.call("delete", ["table": "InvoiceLine", "where": ["InvoiceId": 3], "confirm": .string(token)])
        #expect(reused.isError == true)
        #expect(try fixture.count("InvoiceLine") == 2238)
    }

    @Test("--no-confirm deletes directly")
    func noConfirm() async throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration(.unrestricted)
        configuration.confirmsDestructiveWrites = false
        let client = try await fixture.connect(configuration)
        let result = try await client.call("delete", ["sql": "DELETE FROM InvoiceLine WHERE InvoiceId = ?", "params": [1]])
        #expect(result.structuredContent?.objectValue?["rows_affected"] == 2)
    }

    @Test("domain failures are tool results with isError and a reason code")
    func domainErrors() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.connect(fixture.configuration(.standard))
        let cases: [(String, [String: Value], String)] = [
            ("query", ["sql": "SELEC 1"], "invalid_sql"),
            ("query", ["sql": "DELETE FROM Track"], "operation_not_allowed"),
            ("query", ["sql": "SELECT 1", "wher": 1], "invalid_arguments"),
            ("insert", ["table": "Nope", "rows": [["a": 1]]], "unknown_table"),
            ("update", ["table": "Artist", "set": ["Name": "x"]], "missing_filter"),
            ("insert", ["sql": "UPDATE Artist SET Name = 'x'"], "unexpected_operation"),
        ]
        for (tool, arguments, code) in cases {
            let result = try await client.call(tool, arguments)
            #expect(result.isError == true, "\(tool) \(arguments)")
            #expect(result._meta?.fields[ToolRegistry.errorCodeKey] == .string(code), "\(tool) \(arguments)")
        }
        #expect(try fixture.count("Artist") == 275)
    }

    @Test("configuration errors name the problem", arguments: [
        (["Album", "Nope"], nil, OperationAllowlist.readOnly, "--tables names Nope"),
        (nil, ["Nope"], .standard, "--write-tables names Nope"),
        (["Album"], ["Artist"], .standard, "--tables or the metadata hides"),
        (nil, ["Artist"], .readOnly, "--allow standard"),
    ] as [([String]?, [String]?, OperationAllowlist, String)])
    func configurationErrors(tables: [String]?, writeTables: [String]?, allowlist: OperationAllowlist, message: String) throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration(allowlist)
        configuration.visibleTables = tables
        configuration.writableTables = writeTables
        let error = #expect(throws: DBAIServerConfigurationError.self) { _ = try DBAIServer(configuration: configuration) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a missing database is refused and never created")
    func missingDatabase() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-none-\(UUID()).sqlite").path
        #expect(throws: DBAIServerConfigurationError.database(.fileNotFound(path: path))) {
            _ = try DBAIServer(configuration: DBAIServerConfiguration(databasePath: path, sqliteMemoryLimit: nil))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("mcp-manifest.json is what the registry lists (run Scripts/update-manifest when this fails)")
    func manifestIsCurrent() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("mcp-manifest.json")
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == (try DBAIManifest.json()))
        let manifest = try JSONDecoder().decode(Value.self, from: Data(committed.utf8))
        let listed = try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(ToolRegistry(allowlist: .unrestricted).listTools(.everything)))
        #expect(manifest.objectValue?["_meta"]?.objectValue?[DBAIManifest.metaNamespace]?.objectValue?["tools"] == listed)
        #expect(manifest.objectValue?["manifest_version"] == "0.3")
        #expect(manifest.objectValue?["server"]?.objectValue?["type"] == "binary")
    }
}

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
