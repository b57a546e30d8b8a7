/// A phrase of a question found as a stored value: `'Jazz'` in `Genre.Name`.
package struct ValueMatch: Sendable, Hashable {
    /// The phrase as the question wrote it.
    package var phrase: String
    /// The table and column that hold it.
    package var table: String
    package var column: String
    /// The value as stored (its case may differ from the phrase).
    package var value: String

    package init(phrase: String, table: String, column: String, value: String) {
        self.phrase = phrase
        self.table = table
        self.column = column
        self.value = value
    }
}
