import MCP
import SwiftDBAI

/// The statements of a write tool call: given as `sql` (and `params`), or built from the tool's
/// structured arguments by ``StructuredStatementBuilder``. Never both.
enum WriteStatements {
    static func resolve(
        _ arguments: ToolArguments, structuredArguments: Set<String>, executor: SQLExecutor,
        build: (StructuredStatementBuilder) throws -> [BoundStatement]
    ) async throws -> [BoundStatement] {
        if arguments.has("sql") {
            // all_rows: false is what a strict client sends for "not given".
            let mixed = structuredArguments.filter { arguments.has($0) && arguments.values[$0] != .bool(false) }.sorted()
            guard mixed.isEmpty else {
                throw ToolCallError(
                    "Give either sql (with params) or \(structuredArguments.sorted().joined(separator: ", ")), not both; \(mixed.joined(separator: ", ")) came with sql.",
                    code: .invalidArguments)
            }
            return [BoundStatement(sql: try arguments.requiredString("sql"), arguments: try arguments.sqlArguments())]
        }
        guard arguments.has("table") else {
            throw ToolCallError(
                "Give table (with \(structuredArguments.subtracting(["table"]).sorted().joined(separator: ", "))) or sql.",
                code: .invalidArguments)
        }
        guard !arguments.has("params") else {
            throw ToolCallError("params binds the parameters of sql; with table, give values directly.", code: .invalidArguments)
        }
        return try build(try await executor.statementBuilder())
    }
}
