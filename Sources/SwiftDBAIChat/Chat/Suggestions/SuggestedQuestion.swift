/// A question a database can answer, offered to a user who does not know where to start.
package struct SuggestedQuestion: Sendable, Hashable {
    /// Where a suggestion comes from.
    package enum Source: String, Sendable, Hashable, Codable {
        /// An example the database's users wrote, or a saved query's title.
        case example
        /// The schema: a foreign key, a date column, a column of categories.
        case schema
    }

    /// The question, in plain language.
    package var question: String
    /// A read-only statement that answers it.
    package var sql: String
    /// Where it comes from.
    package var source: Source

    /// Creates a suggestion.
    package init(question: String, sql: String, source: Source) {
        self.question = question
        self.sql = sql
        self.source = source
    }
}
