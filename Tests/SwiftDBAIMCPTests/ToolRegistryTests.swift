import MCP
import Testing
@testable import SwiftDBAIMCP

@Suite("ToolRegistry: a tool's arguments are the properties of its input schema, and only those")
struct ToolRegistryTests {
    @Test("every listed tool refuses an argument its schema does not list, and names the ones it takes")
    func unknownArguments() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.connect(fixture.configuration(.unrestricted))
        let tools = try await client.listTools().tools
        #expect(tools.count >= 7)
        for tool in tools {
            let accepted = ToolRegistry.argumentNames(of: tool).sorted()
            #expect(!accepted.isEmpty, "\(tool.name) takes arguments")
            let result = try await client.call(tool.name, ["wher": 1])
            #expect(result.isError == true, "\(tool.name)")
            guard case .text(let text, _, _)? = result.content.first else {
                Issue.record("\(tool.name): no text")
                continue
            }
            #expect(text == "Unknown argument(s) wher. Accepted: \(accepted.joined(separator: ", ")).", "\(tool.name)")
        }
        await client.disconnect()
    }
}
