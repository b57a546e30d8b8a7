/// A phrase of a question found as a stored value: `'Jazz'` in `Genre.Name`.
struct ValueMatch: Sendable, Hashable {
    /// The phrase as the question wrote it.
    var phrase: String
    /// The table and column that hold it.
    var table: String
    var column: String
    /// The value as stored (its case may differ from the phrase).
    var value: String
}
