import Foundation
import MCP
import Testing
@testable import SwiftDBAIMCP

@Suite("ToolRegistry: a tool's arguments are the properties of its input schema, and only those")
struct ToolRegistryTests {
    /// The arguments each built-in tool took before they were read from its schema.
    static let accepted: [String: [String]] = [
        "describe_schema": ["cursor", "include_samples", "search", "table"],
        "query": ["cursor", "max_rows", "params", "sql"],
        "export": ["file_name", "format", "params", "sql"],
        "aggregate": ["column", "cursor", "function", "group_by", "limit", "order", "table", "where"],
        "insert": ["confirm", "params", "rows", "sql", "table"],
        "update": ["all_rows", "confirm", "params", "set", "sql", "table", "where"],
        "delete": ["all_rows", "confirm", "params", "sql", "table", "where"],
    ]

    /// The text of a result's first content.
    static func text(_ result: CallTool.Result) -> String? {
        guard case .text(let text, _, _)? = result.content.first else { return nil }
        return text
    }

    @Test("every listed tool refuses an argument its schema does not list, and names the ones it takes")
    func unknownArguments() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.connect(fixture.configuration(.unrestricted))
        let tools = try await client.listTools().tools
        #expect(Set(tools.map(\.name)) == Set(Self.accepted.keys))
        for tool in tools {
            let accepted = try #require(Self.accepted[tool.name])
            #expect(ToolRegistry.argumentNames(of: tool).sorted() == accepted, "\(tool.name)")
            let result = try await client.call(tool.name, ["wher": 1])
            #expect(result.isError == true, "\(tool.name)")
            #expect(Self.text(result) == "Unknown argument(s) wher. Accepted: \(accepted.joined(separator: ", ")).", "\(tool.name)")
        }
        await client.disconnect()
    }

    @Test("a canned query whose prefixed name is a built-in tool's plain name keeps its own arguments, and the tool its own")
    func cannedQueryBesideBuiltIn() async throws {
        let fixture = try ServerFixture()
        // With the prefix "describe", the canned query "schema" is called describe_schema, and the
        // built-in describe_schema is describe_describe_schema.
        let metadata = try DatasetteMetadata.parse(Data("""
            {"databases": {"chinook": {"queries": {"schema": {"sql": "SELECT Name FROM Artist WHERE ArtistId = :id"}}}}}
            """.utf8), file: "metadata.json")
        var configuration = fixture.configuration()
        configuration.metadata = metadata
        configuration.toolNaming = try ToolNaming(prefix: "describe")
        let client = try await fixture.connect(configuration)
        let canned = try await client.call("describe_schema", ["id": "1"])
        #expect(canned.isError != true, "\(Self.text(canned) ?? "")")
        let builtIn = try await client.call("describe_describe_schema", ["table": "Artist"])
        #expect(builtIn.isError != true, "\(Self.text(builtIn) ?? "")")
        let wrong = try await client.call("describe_schema", ["table": "Artist"])
        #expect(Self.text(wrong) == "Unknown argument(s) table. Accepted: cursor, id.")
        await client.disconnect()
    }
}
