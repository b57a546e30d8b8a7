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
            inputSchema: InputSchema.object([
                "table": InputSchema.optional(InputSchema.scalar("string", "The table to update (with set and where).")),
                "set": InputSchema.assignments,
                "where": InputSchema.filter,
                "all_rows": InputSchema.optional(InputSchema.scalar(
                    "boolean", "Must be true to update every row when where is empty.")),
                "sql": InputSchema.optional(InputSchema.scalar(
                    "string", "One UPDATE statement, instead of table, set and where.")),
                "params": InputSchema.params,
                "confirm": InputSchema.confirm,
            ]),
            annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.writeOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let statements = try await WriteStatements.resolve(
            arguments, structuredArguments: ["table", "set", "where", "all_rows"], executor: context.executor
        ) { builder in
            [try builder.update(
                try arguments.requiredString("table"), set: try arguments.assignments(),
                where: try arguments.filter(), allRows: try arguments.bool("all_rows") ?? false)]
        }
        return try await context.writes.run(statements, operation: operation, tool: context.naming.name(name), token: try arguments.string("confirm"))
    }
}
