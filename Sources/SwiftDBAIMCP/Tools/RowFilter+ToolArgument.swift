import MCP
import SwiftDBAI

extension RowFilter {
    /// Decodes the map shape of a tool's `where`: each key is a column, each value either a value
    /// (equality; `null` means `IS NULL`) or an object of operators:
    ///
    /// ```json
    /// {"Country": "Brazil", "Total": {">": 5, "<=": 20}, "State": {"is_null": false},
    ///  "InvoiceId": {"in": [1, 2, 3]}, "Name": {"like": "A%"}}
    /// ```
    ///
    /// An object with a `base64` key is a blob value, not operators. Conditions are ordered by
    /// column, then operator. The one table of operators: the list shape is decoded through it.
    ///
    /// - Throws: ``ToolCallError`` naming the argument (`name`) and what to change.
    init(toolArgument value: Value, name: String) throws(ToolCallError) {
        guard case .object(let columns) = value else {
            throw Self.invalid(name)
        }
        var conditions: [Condition] = []
        for (column, test) in columns.sorted(by: { $0.key < $1.key }) {
            guard case .object(let operators) = test, operators["base64"] == nil else {
                conditions.append(Condition(column, .equals(try Self.sqlValue(test, name: name))))
                continue
            }
            guard !operators.isEmpty else {
                throw ToolCallError("Invalid \(name): Empty operator object for column \(column).", code: .invalidArguments)
            }
            for (word, operand) in operators.sorted(by: { $0.key < $1.key }) {
                conditions.append(Condition(column, try Self.predicate(word, operand, name: name)))
            }
        }
        self.init(conditions)
    }

    /// The predicate of one operator word (ASCII case-insensitive) and its operand.
    private static func predicate(_ word: String, _ operand: Value, name: String) throws(ToolCallError) -> Predicate {
        func value() throws(ToolCallError) -> SQLValue { try sqlValue(operand, name: name) }
        func values() throws(ToolCallError) -> [SQLValue] {
            guard case .array(let items) = operand else { throw invalid(name) }
            var values: [SQLValue] = []
            for item in items { values.append(try sqlValue(item, name: name)) }
            return values
        }
        switch operatorWords[word.lowercased()] {
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
        case "is_null":
            guard case .bool(let isNull) = operand else { throw invalid(name) }
            return .isNull(isNull)
        case "between":
            let bounds = try values()
            guard bounds.count == 2 else {
                throw ToolCallError("Invalid \(name): between takes [low, high].", code: .invalidArguments)
            }
            return .between(bounds[0], bounds[1])
        default:
            throw ToolCallError(
                "Invalid \(name): Unknown operator \"\(word)\". Use one of \(InputSchema.operators.joined(separator: ", ")).",
                code: .invalidArguments)
        }
    }

    /// The operator words accepted, with the operator of ``InputSchema/operators`` each one means.
    static let operatorWords: [String: String] = [
        "=": "=", "==": "=", "eq": "=", "!=": "!=", "<>": "!=", "ne": "!=", "<": "<", "lt": "<",
        "<=": "<=", "lte": "<=", ">": ">", "gt": ">", ">=": ">=", "gte": ">=", "like": "like",
        "not_like": "not_like", "in": "in", "not_in": "not_in", "between": "between", "is_null": "is_null",
    ]

    private static func sqlValue(_ value: Value, name: String) throws(ToolCallError) -> SQLValue {
        do {
            return try SQLValue(toolArgument: value, name: name)
        } catch {
            throw invalid(name)
        }
    }

    private static func invalid(_ name: String) -> ToolCallError {
        ToolCallError(
            "Invalid \(name): compare each column to a value with an operator (=, !=, <, <=, >, >=, like, not_like, "
                + "in and not_in with a list, between with [low, high], is_null with true or false).",
            code: .invalidArguments)
    }
}
