import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives

/// The questions suggested for one served database (``QuestionSuggester``), made once per
/// schema version: the `suggest_questions` prompt lists them and `completion/complete` offers
/// them, as a user types, for the `question` of the `ask` and `write_query` prompts.
final class QuestionSuggestions: Sendable {
    /// The most suggestions kept.
    static let limit = 40

    private let made = Mutex<(version: Int, suggestions: [SuggestedQuestion])?>(nil)

    /// The suggestions for the database's current schema, from its users' examples first.
    ///
    /// - Throws: ``SwiftDBAIError`` when the schema cannot be read.
    func suggestions(examples: [ChatExample], executor: SQLExecutor) async throws(SwiftDBAIError) -> [SuggestedQuestion] {
        var schema = try await executor.schema()
        if let made = made.withLock({ $0 }), made.version == schema.schemaVersion { return made.suggestions }
        if schema.tables.count <= DatabasePrompts.countedTableLimit {
            schema = try await executor.schema(includingRowCounts: true)
        }
        let profiles = (try? await executor.columnProfiles(in: schema, budget: .milliseconds(500))) ?? []
        let suggestions = QuestionSuggester(limit: Self.limit).suggestions(examples: examples, schema: schema, profiles: profiles)
        made.withLock { $0 = (schema.schemaVersion, suggestions) }
        return suggestions
    }
}
