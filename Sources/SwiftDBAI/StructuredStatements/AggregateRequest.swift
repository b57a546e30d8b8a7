/// A structured aggregate query: one aggregate function over a table, optionally filtered and
/// grouped.
///
/// ```swift
/// let request = AggregateRequest(
///     table: "Invoice", function: .sum, column: "Total", groupBy: ["BillingCountry"],
///     order: .descending, limit: 5)
/// ```
public struct AggregateRequest: Sendable, Hashable {
    /// The aggregate functions of SQLite that the tool offers.
    public enum Function: String, Sendable, Hashable, CaseIterable, Codable {
        /// Number of rows (`count(*)`), or of non-null values of a column.
        case count
        /// Sum of a column; null when every value is null.
        case sum
        /// Average of a column.
        case avg
        /// Smallest value of a column.
        case min
        /// Largest value of a column.
        case max
        /// Sum of a column as a real; 0.0 when every value is null.
        case total
    }

    /// How to sort the groups by the aggregate value.
    public enum Order: String, Sendable, Hashable, Codable {
        /// Smallest aggregate first.
        case ascending = "asc"
        /// Largest aggregate first.
        case descending = "desc"
    }

    /// The table or view.
    public var table: String
    /// The aggregate function.
    public var function: Function
    /// The column aggregated; nil only for `count` (counts rows).
    public var column: String?
    /// Rows taken into account.
    public var filter: RowFilter
    /// Columns to group by, in order.
    public var groupBy: [String]
    /// Sort of the groups by aggregate value; nil keeps SQLite's group order.
    public var order: Order?
    /// The most groups returned.
    public var limit: Int?

    /// Creates an aggregate request.
    public init(
        table: String, function: Function, column: String? = nil, filter: RowFilter = RowFilter(),
        groupBy: [String] = [], order: Order? = nil, limit: Int? = nil
    ) {
        self.table = table
        self.function = function
        self.column = column
        self.filter = filter
        self.groupBy = groupBy
        self.order = order
        self.limit = limit
    }

    /// The name of the aggregate result column: `count`, or `sum_Total`.
    public var resultColumnName: String {
        column.map { "\(function.rawValue)_\($0)" } ?? function.rawValue
    }
}
