import MCP
import SwiftDBAI

/// `update`: set columns on the rows matching a filter, or one UPDATE statement.
struct UpdateTool: DatabaseTool {
    let name = "update"
    let operation = SQLOperation.update

    var definition: Tool {
        Tool(
            name: name,
            title: "Update rows",
            description: """
                Updates the rows of `table` that match `where`, setting the columns of `set` (names checked, values \
                bound); or runs one UPDATE statement given as `sql` with `params`. Without `where`, every row would \
                change: that needs all_rows: true.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "table": ["type": "string"],
                    "set": ["type": "object", "description": "Columns to set: column → value."],
                    "where": ToolSchemas.filter,
                    "all_rows": ["type": "boolean", "description": "Must be true to update every row when where is empty."],
                    "sql": ["type": "string", "description": "One UPDATE statement (instead of table, set and where)."],
                    "params": ToolSchemas.params,
                    "confirm": ToolSchemas.confirm,
                ],
                "additionalProperties": false,
            ],
            annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.writeOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        try arguments.requireOnly(["table", "set", "where", "all_rows", "sql", "params", "confirm"])
        let statements = try await WriteStatements.resolve(
            arguments, structuredArguments: ["table", "set", "where", "all_rows"], executor: context.executor
        ) { builder in
            [try builder.update(
                try arguments.requiredString("table"), set: try arguments.row("set", arguments.values["set"]),
                where: try arguments.filter(), allRows: try arguments.bool("all_rows") ?? false)]
        }
        return try await context.writes.run(statements, operation: operation, tool: name, token: try arguments.string("confirm"))
    }
}
