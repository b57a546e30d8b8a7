import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAIChat
@testable import SwiftDBAIMCP

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
