import MCP
import SwiftDBAI

/// `delete`: the rows matching a filter, or one DELETE statement — after confirmation.
struct DeleteTool: DatabaseTool {
    let name = "delete"
    let operation = SQLOperation.delete

    var definition: Tool {
        Tool(
            name: name,
            title: "Delete rows",
            description: """
                Deletes the rows of `table` that match `where`, or runs one DELETE statement given as `sql` with \
                `params`. Without `where`, every row would go: that needs all_rows: true. Deleting needs the user's \
                confirmation: the server asks through the client when it can; otherwise the result holds a preview \
                and a confirmation_token — show the preview to the user, and call this tool again with the \
                same arguments and confirm set to the token.
                """,
            inputSchema: InputSchema.object([
                "table": InputSchema.optional(InputSchema.scalar("string", "The table to delete from (with where).")),
                "where": InputSchema.filter,
                "all_rows": InputSchema.optional(InputSchema.scalar(
                    "boolean", "Must be true to delete every row when where is empty.")),
                "sql": InputSchema.optional(InputSchema.scalar(
                    "string", "One DELETE statement, instead of table and where.")),
                "params": InputSchema.params,
                "confirm": InputSchema.confirm,
            ]),
            annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.writeOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let statements = try await WriteStatements.resolve(
            arguments, structuredArguments: ["table", "where", "all_rows"], executor: context.executor
        ) { builder in
            [try builder.delete(
                from: try arguments.requiredString("table"), where: try arguments.filter(),
                allRows: try arguments.bool("all_rows") ?? false)]
        }
        return try await context.writes.run(statements, operation: operation, tool: context.naming.name(name), token: try arguments.string("confirm"))
    }
}
