import SwiftDBAI

/// What a rule may read besides the statement.
struct RewriteContext: Sendable {
    /// The schema the model sees (hidden tables left out).
    var schema: DatabaseSchema
    /// The column profiles of the schema version (NULL counts, categories, dates).
    var profiles: [ColumnProfile]
    /// The question as asked (guesses only read it).
    var question: String
    /// Why SQLite failed the statement (repairs only).
    var failure: SQLiteFailure?

    init(schema: DatabaseSchema, profiles: [ColumnProfile], question: String, failure: SQLiteFailure? = nil) {
        self.schema = schema
        self.profiles = profiles
        self.question = question
        self.failure = failure
    }
}
