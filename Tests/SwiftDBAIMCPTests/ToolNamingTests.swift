import MCP
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

@Suite("Tool names and --tool-prefix")
struct ToolNamingTests {
    @Test("a prefix names every tool PREFIX_name; the registry answers only the prefixed names")
    func prefixed() throws {
        let registry = ToolRegistry(allowlist: .unrestricted, naming: try ToolNaming(prefix: "sales"))
        let names = registry.listTools(.everything).map(\.name)
        #expect(names == ["sales_describe_schema", "sales_query", "sales_export", "sales_aggregate", "sales_insert", "sales_update", "sales_delete", "sales_ask"])
        #expect(registry.tool(named: "sales_query")?.name == "query")
        #expect(registry.tool(named: "query") == nil)
        #expect(registry.tool(named: "salesquery") == nil)
        #expect(registry.turnKind(of: "sales_delete") == .exclusive)
        #expect(registry.turnKind(of: "sales_query") == .shared)
    }

    @Test("no prefix, or an empty one, keeps the built-in names")
    func plain() throws {
        #expect(try ToolNaming(prefix: nil) == .plain)
        #expect(try ToolNaming(prefix: "") == .plain)
        #expect(ToolNaming.plain.name("query") == "query")
    }

    @Test("a prefix must make names every vendor accepts", arguments: [
        "1db", "_db", "my db", "db.main", "db:main", "db_", "ünicode", String(repeating: "a", count: 49), "db/x",
    ])
    func invalid(prefix: String) {
        #expect(throws: DBAIServerConfigurationError.invalidToolPrefix(prefix)) { _ = try ToolNaming(prefix: prefix) }
    }

    @Test("names of letters, digits, hyphens and underscores up to 48 characters are accepted as prefixes", arguments: ["db", "Sales2", "app-db", "a_b", String(repeating: "a", count: 48)])
    func valid(prefix: String) throws {
        let naming = try ToolNaming(prefix: prefix)
        #expect(naming.name("describe_schema").count <= 64)
        #expect(naming.builtInName(naming.name("query")) == "query")
    }
}
