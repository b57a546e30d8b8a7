import MCP
import SwiftDBAI

/// `view_rows`: the result view's way to more rows — app-only (`_meta.ui.visibility: ["app"]`,
/// so hosts never list it to the model), and listed only to sessions that negotiated MCP Apps.
/// It is `query` without `max_rows`: one read-only statement through the same classifier,
/// allowlist, hidden tables, limits and budget, paged with `cursor` (the view's `next_cursor`).
struct ViewRowsTool: DatabaseTool {
    static let toolName = "view_rows"
    let name = ViewRowsTool.toolName
    let operation = SQLOperation.select

    func isAvailable(_ availability: ToolAvailability) -> Bool { availability.showsApps }

    var definition: Tool {
        Tool(
            name: name,
            title: "More rows for the result view",
            description: """
                For the result view only (not for the model): runs one read-only SQLite statement as query does, \
                from cursor on, and returns its rows.
                """,
            inputSchema: InputSchema.object([
                "sql": InputSchema.scalar("string", "One read-only SQLite statement: the view's sql."),
                "params": InputSchema.params,
                "cursor": InputSchema.optional(InputSchema.scalar("string", "The view's next_cursor, for the rows after it.")),
            ]),
            annotations: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: ToolSchemas.rowsOutput,
            _meta: AppsExtension.toolMeta(nil, visibility: ["app"]))
    }

    /// What a page's cursor is bound to: the statement and its values as the view sends them.
    static func identity(sql: String, params: Value?) -> [String: Value] {
        var identity: [String: Value] = ["sql": .string(sql)]
        if let params { identity["params"] = params }
        return identity
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        try arguments.requireOnly(["sql", "params", "cursor"])
        let sql = try arguments.requiredString("sql")
        let parameters = try arguments.sqlArguments()
        let executor = context.executor
        return try await ResultCursor.pagedRead(
            tool: name, shownAs: context.naming.name(name), arguments: arguments, bound: parameters, context: context
        ) { position in
            try await ProgressReporter.reporting(context.progress) {
                try await executor.query(sql, arguments: parameters, after: position)
            }
        }
    }
}
