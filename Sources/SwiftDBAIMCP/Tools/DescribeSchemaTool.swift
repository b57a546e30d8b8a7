import MCP
import SwiftDBAI

/// `describe_schema`: the visible tables and views, with columns, keys, indexes and row counts,
/// plus compact DDL text — within the answer budget.
///
/// When the whole schema fits `--max-result-bytes`, the answer is the whole schema. Otherwise it
/// is a catalog — each table's name, kind, column names, row count and description — a page at a
/// time, with `next_cursor` for the next page. `table` (one name or a list) describes tables in
/// full, a page at a time when they do not fit together; `search` ranks the tables whose names,
/// descriptions or columns match some words. Row counts are counted only for the tables shown.
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
                CREATE statements to read. On a large schema the answer is a catalog (names, columns, row counts, \
                descriptions) a page at a time: pass next_cursor back as cursor for the next page. Give `table` (one \
                name or a list) for full detail, or `search` (words) to find the tables whose names, descriptions or \
                columns match. `include_samples` adds a few rows per table to the DDL.
                """,
            inputSchema: InputSchema.object([
                // Null joined to the string branch: Gemini wants a type on every branch.
                "table": ["anyOf": [
                    ["type": ["string", "null"], "description": "A table or view to describe in full, or a list of them; null for all (or a catalog)."],
                    ["type": "array", "items": ["type": "string"]],
                ]],
                "search": InputSchema.optional(InputSchema.scalar(
                    "string", "Words to look for in table and column names and descriptions; the matching tables, best first.")),
                "cursor": InputSchema.optional(InputSchema.scalar(
                    "string", "next_cursor of the previous answer, with the same table/search, for the next page.")),
                "include_samples": InputSchema.optional(InputSchema.scalar(
                    "boolean", "Add up to 3 sample rows per table to the DDL text (default false).")),
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.schemaOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let request = try DescribeRequest(arguments, database: context.database.name)
        let executor = context.executor
        let schema = try await executor.schema()
        let budget = context.budget
        let describer = SchemaAnswer(
            executor: executor, schema: schema, budget: budget, samples: request.samples, naming: context.naming)
        if !request.tables.isEmpty {
            let tables = try request.tables.map { (name) throws(ToolCallError) in
                guard let table = schema.table(named: name) else {
                    throw ToolCallError(describer.unknownTableMessage(name), code: .unknownTable)
                }
                return table.name
            }
            let offset = try request.offset(kind: "tables", schemaVersion: schema.schemaVersion, parts: tables)
            return try await describer.details(of: tables, from: offset, request: request)
        }
        if let search = request.search {
            let offset = try request.offset(kind: "search", schemaVersion: schema.schemaVersion, parts: [search])
            return try await describer.search(search, from: offset, request: request)
        }
        if request.cursor == nil, let whole = try await describer.whole() { return whole }
        let offset = try request.offset(kind: "catalog", schemaVersion: schema.schemaVersion, parts: [])
        return try await describer.catalog(from: offset, request: request)
    }

    /// With several databases and none named: each database, what it holds and its tables.
    func callAcrossDatabases(_ arguments: ToolArguments, catalog: DatabaseCatalog) async throws -> ToolOutput {
        guard !arguments.has("table"), !arguments.has("search"), !arguments.has("cursor") else {
            throw ToolCallError("table, search and cursor need database: \(catalog.missingDatabaseMessage)", code: .invalidArguments)
        }
        var listed: [Value] = []
        var text = "Databases (give database to describe one):"
        var budget = (catalog.databases.first?.budget ?? AnswerBudget(ExecutionLimits())).available / 2
        for database in catalog.databases {
            let schema = try await database.executor.schema()
            var entry: [String: Value] = [
                "name": .string(database.name),
                "file": .string(database.fileName),
                "table_count": .int(schema.tables.count),
            ]
            var section = "\n\n\(database.name) (\(database.fileName), \(schema.tables.count) tables and views)"
            if let description = database.description {
                entry["description"] = .string(description)
                section += ": \(SchemaDescriber.singleLine(description))"
            }
            budget -= AnswerBudget.size(of: .object(entry)) + AnswerBudget.size(of: section)
            var tables: [Value] = []
            for table in schema.tables {
                var object: [String: Value] = ["name": .string(table.name), "kind": .string(table.kind.rawValue)]
                if let description = table.description { object["description"] = .string(description) }
                var line = "\n- \(table.name)" + (table.kind == .table ? "" : " (\(table.kind.rawValue))")
                if let description = table.description { line += ": " + SchemaDescriber.singleLine(description) }
                let size = AnswerBudget.size(of: .object(object)) + AnswerBudget.size(of: line)
                guard size <= budget else {
                    let missing = schema.tables.count - tables.count
                    entry["tables_not_shown"] = .int(missing)
                    section += "\n- … \(missing) more: call describe_schema with database: \"\(database.name)\" for a catalog of them."
                    break
                }
                budget -= size
                tables.append(.object(object))
                section += line
            }
            entry["tables"] = .array(tables)
            text += section
            listed.append(.object(entry))
        }
        return ToolOutput(
            structured: .object(["tables": [], "ddl": .string(text), "databases": .array(listed)]), text: text)
    }
}

/// The arguments of one `describe_schema` call.
struct DescribeRequest: Sendable {
    let tables: [String]
    let search: String?
    let cursor: String?
    let samples: Bool
    /// The database described: a cursor continues only the answers of its own database.
    let database: String

    init(_ arguments: ToolArguments, database: String) throws(ToolCallError) {
        self.database = database
        tables = try arguments.nameList("table", what: "a table or view name or a list of them")
        search = try arguments.string("search")?.trimmingCharacters(in: .whitespacesAndNewlines)
        cursor = try arguments.string("cursor")
        samples = try arguments.bool("include_samples") ?? false
        if !tables.isEmpty, search != nil {
            throw ToolCallError("Give table or search, not both: search finds tables, table describes them.", code: .invalidArguments)
        }
    }

    /// Where the page starts: 0 without a cursor; the cursor's offset when it continues this
    /// same request under the same schema.
    func offset(kind: String, schemaVersion: Int, parts: [String]) throws(ToolCallError) -> Int {
        guard let cursor else { return 0 }
        do throws(PageCursor.Refusal) {
            let decoded = try PageCursor.decode(
                cursor, kind: "describe_schema." + kind, request: fingerprint(parts))
            guard decoded.schemaVersion == schemaVersion else { throw PageCursor.Refusal.schemaChanged }
            return decoded.offset
        } catch {
            throw ToolCallError("Invalid cursor. \(error.description).", code: .invalidArguments)
        }
    }

    func nextCursor(kind: String, offset: Int, schemaVersion: Int, parts: [String]) -> String {
        PageCursor(
            kind: "describe_schema." + kind, offset: offset, request: fingerprint(parts), schemaVersion: schemaVersion
        ).encoded
    }

    private func fingerprint(_ parts: [String]) -> UInt64 {
        PageCursor.fingerprint([database] + parts.map { $0.lowercased() } + [samples ? "samples" : ""])
    }
}
