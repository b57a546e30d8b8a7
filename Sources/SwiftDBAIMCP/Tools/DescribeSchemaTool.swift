import MCP
import SwiftDBAI

/// `describe_schema`: the visible tables and views, with columns, keys, indexes and row counts,
/// plus compact DDL text.
struct DescribeSchemaTool: DatabaseTool {
    let name = "describe_schema"
    let operation = SQLOperation.select
    let scope = DatabaseScope.optional

    var definition: Tool {
        Tool(
            name: name,
            title: "Describe the database schema",
            description: """
                Lists the tables and views you may use, with their columns (type, not null, default, primary-key \
                position, hidden/generated, description), foreign keys, indexes and approximate row counts, plus \
                CREATE statements to read. Give `table` for one table or view; `include_samples` adds a few rows per table to the DDL.
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

    /// With several databases and none named: each database, what it holds and its tables.
    func callAcrossDatabases(_ arguments: ToolArguments, catalog: DatabaseCatalog) async throws -> ToolOutput {
        try arguments.requireOnly(["table", "include_samples"])
        guard !arguments.has("table") else {
            throw ToolCallError("table needs database: \(catalog.missingDatabaseMessage)", code: .invalidArguments)
        }
        var listed: [Value] = []
        var text = "Databases (give database to describe one):"
        for database in catalog.databases {
            let schema = try await database.executor.schema()
            var entry: [String: Value] = [
                "name": .string(database.name),
                "file": .string(database.fileName),
                "tables": .array(schema.tables.map { table in
                    var object: [String: Value] = ["name": .string(table.name), "kind": .string(table.kind.rawValue)]
                    if let description = table.description { object["description"] = .string(description) }
                    return .object(object)
                }),
            ]
            text += "\n\n\(database.name) (\(database.fileName))"
            if let description = database.description {
                entry["description"] = .string(description)
                text += ": \(SchemaDescriber.singleLine(description))"
            }
            for table in schema.tables {
                text += "\n- \(table.name)" + (table.kind == .table ? "" : " (\(table.kind.rawValue))")
                if let description = table.description { text += ": " + SchemaDescriber.singleLine(description) }
            }
            listed.append(.object(entry))
        }
        return ToolOutput(
            structured: .object(["tables": [], "ddl": .string(text), "databases": .array(listed)]), text: text)
    }
}
