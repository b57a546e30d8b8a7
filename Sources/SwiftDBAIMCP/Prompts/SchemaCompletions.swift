import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIMCPKernel

/// `completion/complete`: the table names for the `table` argument of `explain_table` and the
/// `name` of the table resource templates, the suggested questions (``QuestionSuggestions``) for
/// the `question` of `ask` and `write_query`, and, with several databases, the database names for
/// the prompts' `database` argument, matching what was typed so far.
struct SchemaCompletions: Sendable {
    let databases: [ServedDatabase]

    /// The most values one answer holds (the specification's limit).
    static let maximumValues = 100

    func complete(_ parameters: Complete.Parameters) async throws -> Complete.Result {
        let resources = SchemaResources(databases: databases)
        var candidates: [String] = []
        switch parameters.ref {
        case .prompt(let prompt):
            guard DatabasePrompts.prompts.contains(where: { $0.name == prompt.name }) else {
                throw ProtocolError.invalidParams(detail:
                    "Unknown prompt \(Echo.clipped(prompt.name)). Prompts: \(DatabasePrompts.prompts.map(\.name).joined(separator: ", ")).")
            }
            if parameters.argument.name == PromptCatalog.databaseArgument, databases.count > 1 {
                candidates = databases.map(\.name)
            } else if prompt.name == DatabasePrompts.explainTable, parameters.argument.name == "table" {
                candidates = try await tableNames(in: chosen(parameters))
            } else if [DatabasePrompts.ask, DatabasePrompts.writeQuery].contains(prompt.name), parameters.argument.name == "question" {
                // Questions match by their words, not only their start: returned as they are.
                let matches = QuestionSuggester.matching(parameters.argument.value, in: try await suggestions(in: chosen(parameters)))
                let values = matches.map(\.question)
                return Complete.Result(completion: .init(
                    values: Array(values.prefix(Self.maximumValues)), total: values.count, hasMore: values.count > Self.maximumValues))
            }
        case .resource(let resource):
            guard let template = resources.templates.firstIndex(where: { $0.uriTemplate == resource.uri }) else {
                throw ProtocolError.invalidParams(detail:
                    "Unknown resource template \(resource.uri). Templates: \(resources.templates.map(\.uriTemplate).joined(separator: ", ")).")
            }
            if parameters.argument.name == "name" {
                candidates = try await tableNames(in: [databases[template]])
            }
        }
        let typed = parameters.argument.value.lowercased()
        let starting = candidates.filter { $0.lowercased().hasPrefix(typed) }
        let containing = candidates.filter { !$0.lowercased().hasPrefix(typed) && $0.lowercased().contains(typed) }
        let matches = starting + containing
        return Complete.Result(completion: .init(
            values: Array(matches.prefix(Self.maximumValues)), total: matches.count,
            hasMore: matches.count > Self.maximumValues))
    }

    /// The databases a prompt's completion is for: the one named by its `database` argument, or
    /// all of them when it names none (the only one, with one).
    private func chosen(_ parameters: Complete.Parameters) -> [ServedDatabase] {
        let named = parameters.context?.arguments[PromptCatalog.databaseArgument]
        return databases.count == 1 ? databases : databases.filter { named == nil || $0.name == named }
    }

    /// The suggested questions of the databases, each once.
    private func suggestions(in databases: [ServedDatabase]) async throws -> [SuggestedQuestion] {
        var all: [SuggestedQuestion] = []
        for database in databases {
            do {
                for suggestion in try await database.suggestions.suggestions(examples: database.examples, executor: database.executor)
                where !all.contains(where: { $0.question == suggestion.question }) {
                    all.append(suggestion)
                }
            } catch {
                throw ProtocolError.internalError(detail: error.description)
            }
        }
        return all
    }

    /// The visible tables and views of the databases, each name once.
    private func tableNames(in databases: [ServedDatabase]) async throws -> [String] {
        var names: [String] = []
        for database in databases {
            do {
                for name in try await database.executor.schema().tableNames where !names.contains(name) { names.append(name) }
            } catch {
                throw ProtocolError.internalError(detail: error.description)
            }
        }
        return names
    }
}
