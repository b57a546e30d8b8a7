/// A conjunction of conditions on columns: the `WHERE` of a structured `update`, `delete` or
/// `aggregate`. Column names are checked against the schema and quoted; values are always bound.
///
/// ```swift
/// RowFilter([.init("Country", .equals("Brazil")), .init("Total", .greaterThan(5))])
/// ```
public struct RowFilter: Sendable, Hashable {
    /// A test on one value.
    public enum Predicate: Sendable, Hashable {
        /// `= value` (`IS NULL` for null).
        case equals(SQLValue)
        /// `!= value` (`IS NOT NULL` for null).
        case notEquals(SQLValue)
        /// `< value`.
        case lessThan(SQLValue)
        /// `<= value`.
        case lessThanOrEqual(SQLValue)
        /// `> value`.
        case greaterThan(SQLValue)
        /// `>= value`.
        case greaterThanOrEqual(SQLValue)
        /// `LIKE pattern` (ASCII case-insensitive, `%` and `_` wildcards).
        case like(SQLValue)
        /// `NOT LIKE pattern`.
        case notLike(SQLValue)
        /// `IN (values)`.
        case isIn([SQLValue])
        /// `NOT IN (values)`.
        case isNotIn([SQLValue])
        /// `BETWEEN low AND high`.
        case between(SQLValue, SQLValue)
        /// `IS NULL` when true, `IS NOT NULL` when false.
        case isNull(Bool)
    }

    /// One condition: a column and a predicate.
    public struct Condition: Sendable, Hashable {
        /// The column name (ASCII case-insensitive).
        public var column: String
        /// The test on the column's value.
        public var predicate: Predicate

        /// Creates a condition.
        public init(_ column: String, _ predicate: Predicate) {
            self.column = column
            self.predicate = predicate
        }
    }

    /// The conditions, all of which must hold.
    public var conditions: [Condition]

    /// Creates a filter from conditions (an empty filter matches every row).
    public init(_ conditions: [Condition] = []) {
        self.conditions = conditions
    }

    /// A filter of equalities, column → value.
    public init(equalities: [String: SQLValue]) {
        self.conditions = equalities.sorted { $0.key < $1.key }.map { Condition($0.key, .equals($0.value)) }
    }

    /// True when the filter has no condition.
    public var isEmpty: Bool { conditions.isEmpty }
}
