/// A conjunction of conditions on columns: the `WHERE` of a structured `update`, `delete` or
/// `aggregate`. Column names are checked against the schema and quoted; values are always bound.
///
/// Decodes from the JSON of the tool contract: each key is a column, each value either a value
/// (equality; `null` means `IS NULL`) or an object of operators:
///
/// ```json
/// {"Country": "Brazil", "Total": {">": 5, "<=": 20}, "State": {"is_null": false},
///  "InvoiceId": {"in": [1, 2, 3]}, "Name": {"like": "A%"}}
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

    /// The operator words accepted in the JSON form, with the predicate each one builds.
    static let operatorNames: [String: String] = [
        "=": "=", "==": "=", "eq": "=", "!=": "!=", "<>": "!=", "ne": "!=", "<": "<", "lt": "<",
        "<=": "<=", "lte": "<=", ">": ">", "gt": ">", ">=": ">=", "gte": ">=", "like": "like",
        "not_like": "not_like", "in": "in", "not_in": "not_in", "between": "between", "is_null": "is_null",
    ]
}

extension RowFilter: Decodable {
    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        var conditions: [Condition] = []
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            if let operators = try? container.nestedContainer(keyedBy: DynamicKey.self, forKey: key),
               !operators.allKeys.contains(where: { $0.stringValue == "base64" }) {
                guard !operators.allKeys.isEmpty else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "Empty operator object for column \(key.stringValue).")
                }
                for name in operators.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    conditions.append(Condition(key.stringValue, try Self.predicate(name, in: operators)))
                }
            } else {
                conditions.append(Condition(key.stringValue, .equals(try container.decode(SQLValue.self, forKey: key))))
            }
        }
        self.init(conditions)
    }

    private static func predicate(_ key: DynamicKey, in container: KeyedDecodingContainer<DynamicKey>) throws -> Predicate {
        func value() throws -> SQLValue { try container.decode(SQLValue.self, forKey: key) }
        func values() throws -> [SQLValue] { try container.decode([SQLValue].self, forKey: key) }
        switch operatorNames[key.stringValue.lowercased()] {
        case "=": return .equals(try value())
        case "!=": return .notEquals(try value())
        case "<": return .lessThan(try value())
        case "<=": return .lessThanOrEqual(try value())
        case ">": return .greaterThan(try value())
        case ">=": return .greaterThanOrEqual(try value())
        case "like": return .like(try value())
        case "not_like": return .notLike(try value())
        case "in": return .isIn(try values())
        case "not_in": return .isNotIn(try values())
        case "is_null": return .isNull(try container.decode(Bool.self, forKey: key))
        case "between":
            let bounds = try values()
            guard bounds.count == 2 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "between takes [low, high].")
            }
            return .between(bounds[0], bounds[1])
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "Unknown operator \"\(key.stringValue)\". Use one of =, !=, <, <=, >, >=, like, not_like, in, not_in, between, is_null.")
        }
    }
}
