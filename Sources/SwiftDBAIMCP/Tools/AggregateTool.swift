import MCP
import SwiftDBAI

/// `aggregate`: count, sum, avg, min, max or total over a table, filtered and grouped, without
/// writing SQL.
struct AggregateTool: DatabaseTool {
    let name = "aggregate"
    let operation = SQLOperation.select
    let showsResultView = true

    var definition: Tool {
        Tool(
            name: name,
            title: "Aggregate a table",
            description: """
                Computes one aggregate (count, sum, avg, min, max, total) over a table or view, optionally filtered \
                with `where` and grouped with `group_by`; `order` sorts groups by the aggregate and `limit` keeps the \
                first ones. Names are checked against the schema; no SQL needed.
                """,
            inputSchema: InputSchema.object([
                "table": InputSchema.scalar("string", "The table or view."),
                "function": InputSchema.choice(
                    AggregateRequest.Function.allCases.map(\.rawValue), "The aggregate function."),
                "column": InputSchema.optional(InputSchema.scalar(
                    "string", "The column aggregated; null or \"\" for count(*).")),
                "where": InputSchema.filter,
                "group_by": InputSchema.optional(InputSchema.list(
                    of: ["type": "string"], "Columns to group by; null or [] for one overall value.")),
                "order": InputSchema.optional(InputSchema.choice(
                    ["asc", "desc"], "Sort the groups by the aggregate value; null to sort by the groups.")),
                "limit": InputSchema.optional(InputSchema.scalar("integer", "Keep the first N groups.", minimum: 1)),
                "cursor": ResultCursor.argument,
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.rowsOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let functionName = try arguments.requiredString("function")
        guard let function = AggregateRequest.Function(rawValue: functionName.lowercased()) else {
            throw ToolCallError(
                "Unknown function \(functionName). Use one of \(AggregateRequest.Function.allCases.map(\.rawValue).joined(separator: ", ")).",
                code: .invalidArguments)
        }
        let order = try arguments.string("order").map { (text) throws(ToolCallError) -> AggregateRequest.Order in
            guard let order = AggregateRequest.Order(rawValue: text.lowercased()) else {
                throw ToolCallError("order must be asc or desc.", code: .invalidArguments)
            }
            return order
        }
        let request = AggregateRequest(
            table: try arguments.requiredString("table"), function: function, column: try arguments.string("column"),
            filter: try arguments.filter(), groupBy: try arguments.stringList("group_by"), order: order,
            limit: try arguments.integer("limit"))
        let executor = context.executor
        let statement = try await executor.aggregateStatement(request)
        return try await ResultCursor.pagedRead(
            tool: name, shownAs: context.naming.name(name), arguments: arguments, bound: statement.arguments, context: context
        ) { position in
            try await ProgressReporter.reporting(context.progress) {
                try await executor.query(statement.sql, arguments: statement.arguments, after: position)
            }
        }
    }
}
