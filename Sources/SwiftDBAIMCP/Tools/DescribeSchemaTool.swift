import MCP
import SwiftDBAI

/// `describe_schema`: the visible tables and views, with columns, keys, indexes and row counts,
/// plus compact DDL text.
struct DescribeSchemaTool: DatabaseTool {
    let name = "describe_schema"
    let operation = SQLOperation.select

    var definition: Tool {
        Tool(
            name: name,
            title: "Describe the database schema",
            description: """
                Lists the tables and views you may use, with their columns (type, not null, default, primary-key \
                position, hidden/generated), foreign keys, indexes and approximate row counts, plus CREATE statements \
                to read. Give `table` for one table or view; `include_samples` adds a few rows per table to the DDL.
                """,
            inputSchema: InputSchema.object([
                "table": InputSchema.optional(InputSchema.scalar(
                    "string", "One table or view to describe; null or \"\" for all of them.")),
                "include_samples": InputSchema.optional(InputSchema.scalar(
                    "boolean", "Add up to 3 sample rows per table to the DDL text (default false).")),
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.schemaOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        try arguments.requireOnly(["table", "include_samples"])
        let tableName = try arguments.string("table")
        let samples = try arguments.bool("include_samples") ?? false
        let executor = context.executor
        var schema = try await executor.schema(includingRowCounts: true)
        if let tableName {
            guard let table = schema.table(named: tableName) else {
                throw SwiftDBAIError.unknownTable(tableName, available: schema.tableNames)
            }
            schema = schema.restricted(to: [table.name])
        }
        let ddl: String
        if samples {
            let names = Set(schema.tableNames)
            ddl = try await executor.schemaDescription(sampleRowCount: 3, tables: names)
        } else {
            ddl = SchemaDescriber().describe(schema)
        }
        let tables = Value.array(schema.tables.map(\.structuredValue))
        return ToolOutput(structured: .object(["tables": tables, "ddl": .string(ddl)]), text: ddl)
    }
}
