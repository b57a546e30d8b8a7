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
                Inserts rows into a table, all in one transaction (all or nothing). Give `table` and `rows` (objects \
                of column → value; names are checked against the schema, values bound), or one INSERT statement as \
                `sql` with `params`. An INSERT that may replace existing rows (REPLACE, ON CONFLICT REPLACE) needs \
                confirmation like a delete.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "table": ["type": "string"],
                    "rows": ["type": "array", "items": ["type": "object"], "minItems": 1, "description": "Rows as objects of column → value."],
                    "sql": ["type": "string", "description": "One INSERT statement (instead of table and rows)."],
                    "params": ToolSchemas.params,
                    "confirm": ToolSchemas.confirm,
                ],
                "additionalProperties": false,
            ],
            annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false),
            outputSchema: ToolSchemas.writeOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        try arguments.requireOnly(["table", "rows", "sql", "params", "confirm"])
        let statements = try await WriteStatements.resolve(
            arguments, structuredArguments: ["table", "rows"], executor: context.executor
        ) { builder in
            guard let items = arguments.values["rows"]?.arrayValue else {
                throw ToolCallError("rows must be an array of objects (column → value).", code: "invalid_arguments")
            }
            let rows = try items.enumerated().map { index, item throws(ToolCallError) in
                try arguments.row("rows[\(index)]", item)
            }
            return try builder.insert(into: try arguments.requiredString("table"), rows: rows)
        }
        return try await context.writes.run(statements, operation: operation, tool: name, token: try arguments.string("confirm"))
    }
}
