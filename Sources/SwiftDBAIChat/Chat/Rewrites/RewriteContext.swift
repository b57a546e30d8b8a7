import SwiftDBAI

/// What a rule may read besides the statement.
struct RewriteContext: Sendable {
    /// The schema the model sees (hidden tables left out).
    var schema: DatabaseSchema
    /// The column profiles of the schema version (NULL counts, categories, dates).
    var profiles: [ColumnProfile]
    /// The question as asked (guesses only read it).
    var question: String
    /// SQLite's message for the failed statement (repairs only).
    var error: String?

    init(schema: DatabaseSchema, profiles: [ColumnProfile], question: String, error: String? = nil) {
        self.schema = schema
        self.profiles = profiles
        self.question = question
        self.error = error
    }
}
