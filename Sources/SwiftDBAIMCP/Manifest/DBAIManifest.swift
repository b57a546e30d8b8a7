import Foundation
import MCP
import SwiftDBAI

/// The MCPB v0.3 bundle manifest of `dbai-mcp` (`mcp-manifest.json`), generated from the tool
/// registry so that it always matches `tools/list`. Regenerate the file with
/// `Scripts/update-manifest`; a test fails when it is stale.
package enum DBAIManifest {
    /// The `_meta` namespace that holds the full tool definitions.
    package static let metaNamespace = "io.github.swiftdbai"

    /// The manifest as pretty-printed JSON with sorted keys, ending in a newline.
    ///
    /// - Throws: `EncodingError` (not expected: every value is plain JSON).
    package static func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(manifest()), as: UTF8.self) + "\n"
    }

    /// The manifest as a JSON value.
    ///
    /// - Throws: `EncodingError` (not expected).
    package static func manifest() throws -> Value {
        let tools = ToolRegistry(allowlist: .unrestricted).listTools(.everything)
        let fullTools = try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(tools))
        return [
            "manifest_version": "0.3",
            "name": "dbai-mcp",
            "display_name": "SwiftDBAI SQLite",
            "version": .string(DBAIServer.version),
            "description": "Inspect, query and safely change one SQLite database: schema, read-only queries, aggregates and confirmed writes.",
            "long_description": """
                dbai-mcp serves one SQLite file over MCP. Every statement is compiled and classified by SQLite itself: \
                a read-only server cannot be made to write, hidden tables cannot be read, failed writes leave the \
                file unchanged, and deletes need the user's confirmation.
                """,
            "author": ["name": "SwiftDBAI"],
            "license": "MIT",
            "keywords": ["sqlite", "database", "sql"],
            "server": [
                "type": "binary",
                "entry_point": "bin/dbai-mcp",
                "mcp_config": [
                    "command": "${__dirname}/bin/dbai-mcp",
                    "args": [
                        "--db", "${user_config.db}", "--allow", "${user_config.allow}",
                        "--tool-prefix", "${user_config.tool_prefix}",
                    ],
                ],
            ],
            "user_config": [
                "db": [
                    "type": "file",
                    "title": "SQLite database",
                    "description": "The SQLite file to serve. It must exist; it is never created.",
                    "required": true,
                ],
                "allow": [
                    "type": "string",
                    "title": "Allowed operations",
                    "description": "readonly (default), standard (select, insert, update), unrestricted (adds delete), or a list such as select,insert.",
                    "default": "readonly",
                    "required": false,
                ],
                "tool_prefix": [
                    "type": "string",
                    "title": "Tool name prefix",
                    "description": "Empty (default), or a name such as sales: the tools become sales_query, sales_describe_schema, … so that several databases fit in one client.",
                    "default": "",
                    "required": false,
                ],
            ],
            "tools": .array(tools.map { tool in
                ["name": .string(tool.name), "description": .string(tool.description ?? "")]
            }),
            "tools_generated": false,
            // explore_database, write_query and explain_table inline the served schema: made at run time.
            "prompts_generated": true,
            "compatibility": ["platforms": ["darwin", "linux"]],
            "_meta": .object([metaNamespace: ["tools": fullTools]]),
        ]
    }
}
