import MCP
import SwiftDBAI

/// The building blocks of the tools' advertised input schemas.
///
/// Clients hand these schemas to OpenAI (strict mode), Gemini and Anthropic function calling, so
/// they follow the strictest of them:
/// - every object has fixed `properties`, all of them listed in `required` (an optional argument
///   is nullable instead: `null` means "not given");
/// - every array has `items`; there is no free-form map and no `additionalProperties` keyword
///   (the server refuses unknown arguments itself);
/// - a field has one JSON type or is a nullable scalar (`["string", "null"]`); anything else that
///   may be null is `anyOf` the schema and `{"type": "null"}`, the description inside the first
///   branch (where Gemini's converter keeps it).
///
/// The server accepts more than it advertises: the older map shapes of `where`, `set`, `rows` and
/// `params` keep working (see ``ToolArguments``).
enum InputSchema {
    /// An object whose properties are all required, in the given order.
    static func object(_ properties: KeyValuePairs<String, Value>, description: String? = nil) -> Value {
        object(properties.map { ($0.key, $0.value) }, description: description)
    }

    /// An object whose properties are all required, in the given order.
    static func object(_ properties: [(String, Value)], description: String? = nil) -> Value {
        var object: [String: Value] = [
            "type": "object",
            "properties": .object(Dictionary(properties) { first, _ in first }),
            "required": .array(properties.map { .string($0.0) }),
        ]
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    /// A string, an integer or a boolean argument.
    static func scalar(_ type: String, _ description: String, minimum: Int? = nil) -> Value {
        var object: [String: Value] = ["type": .string(type), "description": .string(description)]
        if let minimum { object["minimum"] = .int(minimum) }
        return .object(object)
    }

    /// A string argument that takes one of `values`.
    static func choice(_ values: [String], _ description: String) -> Value {
        ["type": "string", "enum": .array(values.map(Value.string)), "description": .string(description)]
    }

    /// An array of `items`.
    static func list(of items: Value, _ description: String) -> Value {
        ["type": "array", "items": items, "description": .string(description)]
    }

    /// The schema, or `null` for "not given".
    static func optional(_ schema: Value) -> Value {
        guard case .object(var object) = schema else { return schema }
        if case .string(let type) = object["type"], object["enum"] == nil, ["string", "integer", "number", "boolean"].contains(type) {
            object["type"] = [.string(type), "null"]
            return .object(object)
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }

    /// The branches of a scalar value: every branch typed (Gemini wants a type on each node),
    /// null joined to the string branch.
    private static let scalarBranches: [Value] = [["type": ["string", "null"]], ["type": "number"], ["type": "boolean"]]

    /// One SQL value: a string, a number, a boolean (bound as 1 or 0) or null.
    static let value: Value = [
        "anyOf": .array(scalarBranches),
        "description": "A string, a number, a boolean (stored as 1/0) or null.",
    ]

    /// A value, or a list of values (for `in`, `not_in` and `between`).
    static let valueOrList: Value = [
        "anyOf": .array(scalarBranches + [["type": "array", "items": value]]),
        "description": "The value compared; a list for in and not_in, [low, high] for between, true or false for is_null.",
    ]

    /// The comparison operators of a `where` condition.
    static let operators = ["=", "!=", "<", "<=", ">", ">=", "like", "not_like", "in", "not_in", "between", "is_null"]

    /// `where`: conditions that must all hold.
    static let filter = optional(list(
        of: object([
            "column": scalar("string", "A column of the table."),
            "op": choice(operators, "How the column compares to value (like: % and _ wildcards, ASCII case-insensitive)."),
            "value": valueOrList,
        ]),
        "Rows to match: conditions that must all hold, e.g. [{\"column\": \"Country\", \"op\": \"=\", \"value\": \"Brazil\"}]. "
            + "null or [] matches every row."))

    /// `set`: the columns an update writes.
    static let assignments = optional(list(
        of: object(["column": scalar("string", "A column of the table."), "value": value]),
        "The columns to set, e.g. [{\"column\": \"Total\", \"value\": 9.9}]."))

    /// `rows`: the rows an insert adds, as one list of columns and a list of values per row.
    static let rows = optional(object(
        [
            "columns": list(of: ["type": "string"], "The columns given, in order."),
            "values": list(
                of: list(of: value, "One row: a value for each column, in the order of columns."),
                "The rows to insert, each a list of values."),
        ],
        description: "Rows to insert: {\"columns\": [\"Name\", \"Price\"], \"values\": [[\"Tea\", 2.5], [\"Cake\", 4]]}. "
            + "Columns left out take their default."))

    /// `params`: values bound to the statement's parameters.
    static let params = optional(list(
        of: [
            "anyOf": .array(scalarBranches + [
                object(["name": scalar("string", "The parameter's name, e.g. id for :id."), "value": value]),
            ]),
        ],
        "Values bound to the statement's parameters instead of being written into the SQL: a list of values for ?, ?1 "
            + "parameters, or a list of {\"name\", \"value\"} for :name parameters."))

    /// `confirm`: the token of a confirmation request.
    static let confirm = optional(scalar(
        "string", "The confirmation_token returned by a previous call of this tool with the same arguments."))
}
