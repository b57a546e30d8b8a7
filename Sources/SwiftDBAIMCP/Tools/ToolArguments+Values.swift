import Foundation
import MCP
import SwiftDBAI

/// The arguments that carry SQL values: `params`, `where`, `set` and `rows`.
///
/// Each accepts the list shape the input schemas advertise (portable to every vendor's function
/// calling) and the older object-map shape that scripts and earlier clients send.
extension ToolArguments {
    /// `params`: a list of values binds `?` parameters; a list of `{"name", "value"}` (or an
    /// object of name → value) binds `:name`, `@name` and `$name` parameters.
    func sqlArguments(_ name: String = "params") throws(ToolCallError) -> SQLArguments {
        guard let value = values[name] else { return .none }
        switch value {
        case .array(let items):
            if items.contains(where: Self.isNamedParameter) {
                var named: [String: SQLValue] = [:]
                for (index, item) in items.enumerated() {
                    guard Self.isNamedParameter(item), case .object(let pair) = item,
                          let key = pair["name"]?.stringValue.map(Self.parameterName), !key.isEmpty else {
                        throw ToolCallError(
                            "\(name) mixes named and positional values: give a list of {\"name\", \"value\"} for :name parameters, "
                                + "or a list of values for ? parameters (\(name)[\(index)] is not a named value).",
                            code: .invalidArguments)
                    }
                    guard named[key] == nil else {
                        throw ToolCallError("\(name) names the parameter \(key) twice.", code: .invalidArguments)
                    }
                    guard let value = pair["value"] else {
                        throw ToolCallError(
                            "\(name)[\(index)] needs a value (null binds NULL).", code: .invalidArguments)
                    }
                    named[key] = try SQLValue(toolArgument: value, name: "\(name)[\(index)].value")
                }
                return .named(named)
            }
            var converted: [SQLValue] = []
            for (index, item) in items.enumerated() {
                converted.append(try SQLValue(toolArgument: item, name: "\(name)[\(index)]"))
            }
            return .positional(converted)
        case .object(let object):
            var converted: [String: SQLValue] = [:]
            for (key, item) in object {
                converted[Self.parameterName(key)] = try SQLValue(toolArgument: item, name: "\(name).\(key)")
            }
            return .named(converted)
        default:
            throw ToolCallError(
                "\(name) must be a list: values for ? parameters, or {\"name\", \"value\"} items for :name parameters.",
                code: .invalidArguments)
        }
    }

    /// `{"name": …, "value": …}` (a blob is `{"base64": …}`, so the two cannot be confused).
    private static func isNamedParameter(_ item: Value) -> Bool {
        guard case .object(let object) = item, object["name"] != nil else { return false }
        return Set(object.keys).isSubset(of: ["name", "value"])
    }

    /// A parameter name without the `:`, `@` or `$` that marks it in SQL.
    private static func parameterName(_ name: String) -> String {
        name.first.map { ":@$".contains($0) } == true ? String(name.dropFirst()) : name
    }

    /// `where`: a list of `{"column", "op", "value"}` conditions, or an object of column → value
    /// or column → {operator: value}.
    func filter(_ name: String = "where") throws(ToolCallError) -> RowFilter {
        guard let value = values[name] else { return RowFilter() }
        switch value {
        case .array(let items):
            var conditions: [RowFilter.Condition] = []
            for (index, item) in items.enumerated() {
                conditions += try Self.condition(item, name: "\(name)[\(index)]")
            }
            return RowFilter(conditions)
        case .object:
            return try RowFilter(toolArgument: value, name: name)
        default:
            throw ToolCallError(
                "\(name) must be a list of conditions such as {\"column\": \"Country\", \"op\": \"=\", \"value\": \"Brazil\"}.",
                code: .invalidArguments)
        }
    }

    /// One condition of the list shape, decoded through the map shape so that both share one
    /// table of operators.
    private static func condition(_ item: Value, name: String) throws(ToolCallError) -> [RowFilter.Condition] {
        guard case .object(let object) = item, let column = object["column"]?.stringValue,
              !column.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ToolCallError(
                "\(name) must be {\"column\": NAME, \"op\": OPERATOR, \"value\": VALUE}.", code: .invalidArguments)
        }
        let unknown = Set(object.keys).subtracting(["column", "op", "value"]).sorted()
        guard unknown.isEmpty else {
            throw ToolCallError(
                "\(name) has unknown key(s) \(unknown.joined(separator: ", ")): a condition has column, op and value.",
                code: .invalidArguments)
        }
        guard let value = object["value"] else {
            throw ToolCallError(
                "\(name).value is required: the value compared (null with = matches NULL).", code: .invalidArguments)
        }
        let op: String
        switch object["op"] {
        case nil, .null: op = "="
        case .string(let text) where !text.trimmingCharacters(in: .whitespaces).isEmpty:
            op = text.trimmingCharacters(in: .whitespaces)
        default:
            throw ToolCallError(
                "\(name).op must be one of \(InputSchema.operators.joined(separator: ", ")).", code: .invalidArguments)
        }
        // In the map shape an object with a base64 key is a blob value, not an operator.
        guard op.lowercased() != "base64" else {
            throw ToolCallError(
                "\(name).op must be one of \(InputSchema.operators.joined(separator: ", ")).", code: .invalidArguments)
        }
        let filter = try RowFilter(toolArgument: [column: [op: value]], name: name)
        return filter.conditions
    }

    /// `set`: a list of `{"column", "value"}`, or an object of column → value.
    func assignments(_ name: String = "set") throws(ToolCallError) -> [String: SQLValue] {
        guard let value = values[name] else {
            throw ToolCallError(
                "\(name) is required: the columns to change, as [{\"column\": NAME, \"value\": VALUE}].", code: .invalidArguments)
        }
        switch value {
        case .array(let items):
            var row: [String: SQLValue] = [:]
            for (index, item) in items.enumerated() {
                guard case .object(let pair) = item, let column = pair["column"]?.stringValue, pair["value"] != nil,
                      Set(pair.keys).isSubset(of: ["column", "value"]) else {
                    throw ToolCallError("\(name)[\(index)] must be {\"column\": NAME, \"value\": VALUE}.", code: .invalidArguments)
                }
                guard row[column] == nil else {
                    throw ToolCallError("\(name) sets the column \(column) twice.", code: .invalidArguments)
                }
                row[column] = try SQLValue(toolArgument: pair["value"] ?? .null, name: "\(name)[\(index)].value")
            }
            return row
        case .object:
            return try Self.row(value, name: name)
        default:
            throw ToolCallError(
                "\(name) must be a list of {\"column\": NAME, \"value\": VALUE}.", code: .invalidArguments)
        }
    }

    /// `rows`: `{"columns": […], "values": [[…], …]}`, or a list of objects of column → value.
    func insertedRows(_ name: String = "rows") throws(ToolCallError) -> [[String: SQLValue]] {
        switch values[name] {
        case .object(let object) where object["columns"] != nil || object["values"] != nil:
            return try Self.tabularRows(object, name: name)
        case .array(let items):
            var rows: [[String: SQLValue]] = []
            for (index, item) in items.enumerated() {
                rows.append(try Self.row(item, name: "\(name)[\(index)]"))
            }
            return rows
        default:
            throw ToolCallError(
                "\(name) must be {\"columns\": [NAME, …], \"values\": [[VALUE, …], …]}.", code: .invalidArguments)
        }
    }

    private static func tabularRows(_ object: [String: Value], name: String) throws(ToolCallError) -> [[String: SQLValue]] {
        let unknown = Set(object.keys).subtracting(["columns", "values"]).sorted()
        guard unknown.isEmpty else {
            throw ToolCallError(
                "\(name) has unknown key(s) \(unknown.joined(separator: ", ")): give columns and values.", code: .invalidArguments)
        }
        let columnItems = object["columns"]?.arrayValue ?? []
        let columns = columnItems.compactMap(\.stringValue)
        guard columns.count == columnItems.count else {
            throw ToolCallError("\(name).columns must be a list of column names.", code: .invalidArguments)
        }
        if let repeated = columns.firstRepeated(comparing: { $0.lowercased() }) {
            throw ToolCallError("\(name).columns names \(repeated) twice.", code: .invalidArguments)
        }
        guard let valueRows = object["values"]?.arrayValue, !valueRows.isEmpty else {
            throw ToolCallError(
                "\(name).values must hold at least one row: a list of values per row, in the order of columns.",
                code: .invalidArguments)
        }
        var rows: [[String: SQLValue]] = []
        for (index, item) in valueRows.enumerated() {
            guard let cells = item.arrayValue, cells.count == columns.count else {
                throw ToolCallError(
                    "\(name).values[\(index)] must be a list of \(columns.count) value(s), one per column (\(columns.joined(separator: ", "))).",
                    code: .invalidArguments)
            }
            var row: [String: SQLValue] = [:]
            for (column, cell) in zip(columns, cells) {
                row[column] = try SQLValue(toolArgument: cell, name: "\(name).values[\(index)] (\(column))")
            }
            rows.append(row)
        }
        return rows
    }

    /// An object of column → value.
    private static func row(_ value: Value, name: String) throws(ToolCallError) -> [String: SQLValue] {
        guard let object = value.objectValue else {
            throw ToolCallError("\(name) must be an object of column → value.", code: .invalidArguments)
        }
        var row: [String: SQLValue] = [:]
        for (column, item) in object {
            row[column] = try SQLValue(toolArgument: item, name: "\(name).\(column)")
        }
        return row
    }
}

private extension Array {
    /// The first element whose key an earlier element already had.
    func firstRepeated(comparing key: (Element) -> String) -> Element? {
        var seen: Set<String> = []
        return first { !seen.insert(key($0)).inserted }
    }
}
