import Foundation
import MCP
import SwiftDBAIPrimitives
import SwiftDBAI
import SwiftDBAIMCPKernel

/// `view_rows`: the result view's way to more rows — app-only (`_meta.ui.visibility: ["app"]`,
/// so hosts never list it to the model), and listed only to sessions that negotiated MCP Apps.
/// It is `query` without `max_rows`: one read-only statement through the same classifier,
/// allowlist, hidden tables, limits and budget, paged with `cursor` (the view's `next_cursor`).
/// The statement comes as `sql` and `params`, or as `source`, the view's opaque copy of both
/// (a browser would round an integer beyond 2^53 in `params`).
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
                "sql": InputSchema.optional(InputSchema.scalar("string", "One read-only SQLite statement: the view's sql.")),
                "params": InputSchema.params,
                "source": InputSchema.optional(InputSchema.scalar("string", "The view's source: its sql and params in one.")),
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

    /// The view's `source`: `sql` and `params` as one base64url JSON string.
    static func source(sql: String, params: Value?) -> String {
        var object: [String: Value] = ["sql": .string(sql)]
        if let params { object["params"] = params }
        return Base64URL.encoded(JSONMessageWriter.data(.object(object)))
    }

    /// The statement and values of a call: `source`, or `sql` and `params`.
    private static func statement(_ arguments: ToolArguments) throws(ToolCallError) -> (sql: String, params: Value?, arguments: ToolArguments) {
        guard let source = try arguments.string("source") else {
            return (try arguments.requiredString("sql"), arguments.values["params"], arguments)
        }
        guard !arguments.has("sql"), !arguments.has("params") else {
            throw ToolCallError("Give source, or sql and params, not both.", code: .invalidArguments)
        }
        guard source.utf8.count <= 4 << 20 else {
            throw ToolCallError("source is not a source this server gave: pass the view's source unchanged.", code: .invalidArguments)
        }
        guard let data = Base64URL.decoded(source),
              case .object(let object)? = try? JSONMessageParser.parse(data), let sql = object["sql"]?.stringValue else {
            throw ToolCallError("source is not a source this server gave: pass the view's source unchanged.", code: .invalidArguments)
        }
        var decoded: [String: Value] = ["sql": .string(sql)]
        if let params = object["params"] { decoded["params"] = params }
        return (sql, object["params"], ToolArguments(decoded))
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let (sql, params, statement) = try Self.statement(arguments)
        let parameters = try statement.sqlArguments()
        let executor = context.executor
        return try await context.reading(sql, arguments: parameters) {
            try await ResultCursor.pagedRead(
                tool: name, shownAs: context.naming.name(name), arguments: arguments,
                identity: Self.identity(sql: sql, params: params.flatMap { ToolArguments.isNotGiven($0) ? nil : $0 }),
                bound: parameters, context: context
            ) { position in
                try await ProgressReporter.reporting(context.progress) {
                    try await executor.query(sql, arguments: parameters, after: position)
                }
            }
        }
    }
}
