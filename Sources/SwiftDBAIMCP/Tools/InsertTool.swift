import MCP
import SwiftDBAI

/// `insert`: rows as column → value objects, or one INSERT statement. All rows in one transaction.
struct InsertTool: DatabaseTool {
    let name = "insert"
    let operation = SQLOperation.insert

    var definition: Tool {
        Tool(
            name: name,
            title: "Insert rows",
            description: """
                Inserts rows into a table, all in one transaction (all or nothing). Give `table` and `rows` (a list \
                of columns and a list of values per row; names are checked against the schema, values bound), or one \
                INSERT statement as `sql` with `params`. An INSERT that may replace existing rows (REPLACE, ON CONFLICT REPLACE) needs \
                confirmation like a delete.
                """,
            inputSchema: InputSchema.object([
                "table": InputSchema.optional(InputSchema.scalar("string", "The table to insert into (with rows).")),
                "rows": InputSchema.rows,
                "sql": InputSchema.optional(InputSchema.scalar(
                    "string", "One INSERT statement, instead of table and rows.")),
                "params": InputSchema.params,
                "confirm": InputSchema.confirm,
            ]),
            annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false),
            outputSchema: ToolSchemas.writeOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let statements = try await WriteStatements.resolve(
            arguments, structuredArguments: ["table", "rows"], executor: context.executor
        ) { builder in
            try builder.insert(into: try arguments.requiredString("table"), rows: try arguments.insertedRows())
        }
        return try await context.writes.run(statements, operation: operation, tool: context.naming.name(name), token: try arguments.string("confirm"))
    }
}
