/// What a column of an ordinary table holds, for linking questions to data: how many rows leave
/// it NULL, whether its values are ISO dates, and its values when it has few (a status, a
/// category, a job title).
package struct ColumnProfile: Sendable, Hashable {
    package var table: String
    package var column: String
    /// Rows of the table, and rows where the column is NULL.
    package var rowCount: Int
    package var nullCount: Int
    /// True when a stored value starts like an ISO-8601 date (`2024-05-01`, `2024-05-01 10:30:00`).
    package var holdsISODates: Bool
    /// The distinct text values, when there are at most ``ColumnProfile/maxCategories``, each is
    /// short and they are not dates; nil otherwise.
    package var categories: [String]?
    /// True when the stored ISO dates carry a time of day (`2024-05-01 10:30:00`).
    package var holdsTimes = false

    package init(
        table: String, column: String, rowCount: Int, nullCount: Int, holdsISODates: Bool, categories: [String]?,
        holdsTimes: Bool = false
    ) {
        self.table = table
        self.column = column
        self.rowCount = rowCount
        self.nullCount = nullCount
        self.holdsISODates = holdsISODates
        self.categories = categories
        self.holdsTimes = holdsTimes
    }

    /// The most distinct values a column may have to count as a set of categories.
    package static let maxCategories = 30
    /// The longest value a category may have, in characters.
    package static let maxCategoryLength = 40

    /// True for an ISO-8601 date followed by a time: `2024-05-01 10:30:00`, `2024-05-01T10:30`.
    package static func looksLikeISODateTime(_ text: String) -> Bool {
        guard looksLikeISODate(text) else { return false }
        let characters = Array(text.utf8.prefix(12))
        return characters.count == 12 && (characters[10] == UInt8(ascii: " ") || characters[10] == UInt8(ascii: "T"))
            && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[11])
    }

    /// True for text that starts like an ISO-8601 date: four digits, `-`, two digits, `-`, two digits.
    package static func looksLikeISODate(_ text: String) -> Bool {
        let characters = Array(text.utf8.prefix(10))
        guard characters.count == 10 else { return false }
        for (index, character) in characters.enumerated() {
            let isDash = index == 4 || index == 7
            if isDash ? character != UInt8(ascii: "-") : !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(character) {
                return false
            }
        }
        return true
    }
}
