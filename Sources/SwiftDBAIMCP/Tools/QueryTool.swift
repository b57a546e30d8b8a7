import MCP
import SwiftDBAI

/// `query`: one read-only statement, with bound parameters, a row cap and a timeout; a result cut
/// by a limit comes with `next_cursor`, which continues it.
struct QueryTool: DatabaseTool {
    let name = "query"
    let operation = SQLOperation.select
    let showsResultView = true

    var definition: Tool {
        Tool(
            name: name,
            title: "Run a read-only SQL query",
            description: """
                Runs exactly one read-only SQLite statement (SELECT, WITH … SELECT, VALUES) and returns its rows. \
                Bind values with `params` instead of writing them into the SQL. Results stop at the row cap or the \
                size limit and report truncated: true with next_cursor: call again with the same sql and params and \
                that cursor for the next rows. Writes, schema changes, ATTACH and PRAGMA assignments are refused.
                """,
            inputSchema: InputSchema.object([
                "sql": InputSchema.scalar("string", "One read-only SQLite statement."),
                "params": InputSchema.params,
                "max_rows": InputSchema.optional(InputSchema.scalar(
                    "integer", "A smaller row cap for this call (default: the server's).", minimum: 1)),
                "cursor": InputSchema.optional(InputSchema.scalar(
                    "string", "next_cursor of the previous page of the same sql and params, for the rows after it.")),
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.rowsOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let sql = try arguments.requiredString("sql")
        let parameters = try arguments.sqlArguments()
        let maxRows = try arguments.integer("max_rows")
        let executor = context.executor
        return try await context.reading(sql, arguments: parameters) {
            try await ResultCursor.pagedRead(
                tool: name, shownAs: context.naming.name(name), arguments: arguments, bound: parameters, context: context
            ) { position in
                try await ProgressReporter.reporting(context.progress) {
                    try await executor.query(sql, arguments: parameters, maxRows: maxRows, after: position)
                }
            }
        }
    }
}
