import MCP
import SwiftDBAI

/// `completion/complete`: the table names for the `table` argument of `explain_table` and the
/// `name` of the `sqlite://table/{name}` resource template, matching what was typed so far.
struct SchemaCompletions: Sendable {
    let executor: SQLExecutor

    /// The most values one answer holds (the specification's limit).
    static let maximumValues = 100

    func complete(_ parameters: Complete.Parameters) async throws -> Complete.Result {
        let completesTables: Bool
        switch parameters.ref {
        case .prompt(let prompt):
            guard DatabasePrompts.prompts.contains(where: { $0.name == prompt.name }) else {
                throw MCPError.invalidParams(
                    "Unknown prompt \(prompt.name). Prompts: \(DatabasePrompts.prompts.map(\.name).joined(separator: ", ")).")
            }
            completesTables = prompt.name == DatabasePrompts.explainTable && parameters.argument.name == "table"
        case .resource(let resource):
            guard SchemaResources.templates.contains(where: { $0.uriTemplate == resource.uri }) else {
                throw MCPError.invalidParams(
                    "Unknown resource template \(resource.uri). Templates: \(SchemaResources.templates.map(\.uriTemplate).joined(separator: ", ")).")
            }
            completesTables = parameters.argument.name == "name"
        }
        guard completesTables else { return Complete.Result(completion: .init(values: [], total: 0, hasMore: false)) }
        let schema: DatabaseSchema
        do {
            schema = try await executor.schema()
        } catch {
            throw MCPError.internalError(error.description)
        }
        let typed = parameters.argument.value.lowercased()
        let starting = schema.tableNames.filter { $0.lowercased().hasPrefix(typed) }
        let containing = schema.tableNames.filter { !$0.lowercased().hasPrefix(typed) && $0.lowercased().contains(typed) }
        let matches = starting + containing
        return Complete.Result(completion: .init(
            values: Array(matches.prefix(Self.maximumValues)), total: matches.count,
            hasMore: matches.count > Self.maximumValues))
    }
}
