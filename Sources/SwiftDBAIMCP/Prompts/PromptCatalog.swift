import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// The prompts of every database served. With one database they are ``DatabasePrompts``'s as
/// they are; with several, each prompt takes a required `database` argument first.
struct PromptCatalog: Sendable {
    let databases: [ServedDatabase]
    let naming: ToolNaming
    /// Every prompt fits it.
    let budget: AnswerBudget

    /// The argument that names the database of a prompt, with several databases.
    static let databaseArgument = "database"

    var servesSeveral: Bool { databases.count > 1 }

    /// The `prompts/list` result.
    var prompts: [Prompt] {
        guard servesSeveral else { return DatabasePrompts.prompts }
        let names = databases.map(\.name).joined(separator: ", ")
        return DatabasePrompts.prompts.map { prompt in
            Prompt(
                name: prompt.name, title: prompt.title, description: prompt.description,
                arguments: [.init(
                    name: Self.databaseArgument, title: "Database", description: "The database: one of \(names).",
                    required: true)] + (prompt.arguments ?? []))
        }
    }

    /// The `prompts/get` result.
    ///
    /// - Throws: `ProtocolError.invalidParams` for an unknown prompt or database, or a missing argument.
    func get(_ name: String, arguments: [String: String]?) async throws -> GetPrompt.Result {
        try await prompts(for: arguments, prompt: name).get(name, arguments: arguments)
    }

    /// The prompts of the database the arguments name (the only one, with one).
    private func prompts(for arguments: [String: String]?, prompt: String) throws -> DatabasePrompts {
        let database: ServedDatabase?
        if servesSeveral {
            let requested = arguments?[Self.databaseArgument]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !requested.isEmpty else {
                throw ProtocolError.invalidParams(detail:
                    "The prompt \(Echo.clipped(prompt)) needs the argument database: one of \(databases.map(\.name).joined(separator: ", ")).")
            }
            database = databases.first { $0.name == requested }
            guard database != nil else {
                throw ProtocolError.invalidParams(detail:
                    "There is no database \(Echo.clipped(requested)). Databases: \(databases.map(\.name).joined(separator: ", ")).")
            }
        } else {
            database = databases.first
        }
        guard let database else { throw ProtocolError.internalError(detail: "The server serves no database.") }
        return DatabasePrompts(
            executor: database.executor, databaseName: database.fileName, naming: naming, budget: budget, examples: database.examples,
            suggestions: database.suggestions)
    }
}
