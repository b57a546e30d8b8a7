/// A question about a database with the SQL that answers it, written by someone who knows the
/// database: the way to teach ``ChatEngine`` its tables, conventions and traps.
///
/// The examples most like a question are shown to the model with it (after the schema, which
/// stays cached), as worked examples. In `dbai-mcp` they come from the metadata file's
/// `examples` and from canned queries with a title or description.
///
/// ```swift
/// var configuration = ChatConfiguration()
/// configuration.examples = [
///     ChatExample(question: "Which customers have never ordered?",
///                 sql: "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)"),
/// ]
/// ```
public struct ChatExample: Sendable, Hashable, Codable {
    /// The question, as a user would ask it.
    public var question: String
    /// One SQLite statement that answers it.
    public var sql: String

    /// Creates an example.
    public init(question: String, sql: String) {
        self.question = question
        self.sql = sql
    }
}
