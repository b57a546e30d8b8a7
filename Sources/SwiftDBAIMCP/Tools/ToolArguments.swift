import Foundation
import MCP
import SwiftDBAI

/// The arguments of one tool call, with typed accessors whose errors name the argument and say
/// what it should be.
struct ToolArguments: Sendable {
    let values: [String: Value]

    init(_ values: [String: Value]?) {
        self.values = values ?? [:]
    }

    /// Refuses arguments the tool does not know, so a typo (`wher`) is not silently ignored.
    func requireOnly(_ known: Set<String>) throws(ToolCallError) {
        let unknown = values.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw ToolCallError(
                "Unknown argument(s) \(unknown.joined(separator: ", ")). Accepted: \(known.sorted().joined(separator: ", ")).",
                code: "invalid_arguments")
        }
    }

    func has(_ name: String) -> Bool {
        guard let value = values[name] else { return false }
        return !value.isNull
    }

    func string(_ name: String) throws(ToolCallError) -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let string = value.stringValue else {
            throw ToolCallError("\(name) must be a string.", code: "invalid_arguments")
        }
        return string
    }

    func requiredString(_ name: String) throws(ToolCallError) -> String {
        guard let string = try string(name), !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ToolCallError("\(name) is required and must be a non-empty string.", code: "invalid_arguments")
        }
        return string
    }

    func bool(_ name: String) throws(ToolCallError) -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let bool = value.boolValue else {
            throw ToolCallError("\(name) must be true or false.", code: "invalid_arguments")
        }
        return bool
    }

    func integer(_ name: String, minimum: Int = 1) throws(ToolCallError) -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        let integer: Int? = switch value {
        case .int(let int): int
        case .double(let double) where double.rounded() == double && abs(double) < 1e15: Int(double)
        default: nil
        }
        guard let integer, integer >= minimum else {
            throw ToolCallError("\(name) must be an integer of at least \(minimum).", code: "invalid_arguments")
        }
        return integer
    }

    func stringList(_ name: String) throws(ToolCallError) -> [String] {
        guard let value = values[name], !value.isNull else { return [] }
        if let single = value.stringValue { return [single] }
        guard let array = value.arrayValue, let strings = Optional(array.compactMap(\.stringValue)),
              strings.count == array.count else {
            throw ToolCallError("\(name) must be a column name or an array of column names.", code: "invalid_arguments")
        }
        return strings
    }

    /// `params`: an array binds `?` parameters, an object binds `:name` parameters.
    func sqlArguments(_ name: String = "params") throws(ToolCallError) -> SQLArguments {
        guard let value = values[name], !value.isNull else { return .none }
        switch value {
        case .array(let items):
            var converted: [SQLValue] = []
            for (index, item) in items.enumerated() {
                converted.append(try SQLValue(toolArgument: item, name: "\(name)[\(index)]"))
            }
            return .positional(converted)
        case .object(let object):
            var converted: [String: SQLValue] = [:]
            for (key, item) in object {
                converted[key] = try SQLValue(toolArgument: item, name: "\(name).\(key)")
            }
            return .named(converted)
        default:
            throw ToolCallError(
                "\(name) must be an array (for ? parameters) or an object (for :name parameters).",
                code: "invalid_arguments")
        }
    }

    /// An object of column → value.
    func row(_ name: String, _ value: Value?) throws(ToolCallError) -> [String: SQLValue] {
        guard let object = value?.objectValue else {
            throw ToolCallError("\(name) must be an object of column → value.", code: "invalid_arguments")
        }
        var row: [String: SQLValue] = [:]
        for (column, item) in object {
            row[column] = try SQLValue(toolArgument: item, name: "\(name).\(column)")
        }
        return row
    }

    /// `where`: column → value, or column → {operator: value}.
    func filter(_ name: String = "where") throws(ToolCallError) -> RowFilter {
        guard let value = values[name], !value.isNull else { return RowFilter() }
        guard value.objectValue != nil else {
            throw ToolCallError(
                "\(name) must be an object: {\"column\": value} or {\"column\": {\">\": value}}.", code: "invalid_arguments")
        }
        do {
            return try JSONDecoder().decode(RowFilter.self, from: try JSONEncoder().encode(value))
        } catch let DecodingError.dataCorrupted(context) {
            throw ToolCallError("Invalid \(name): \(context.debugDescription)", code: "invalid_arguments")
        } catch {
            throw ToolCallError(
                "Invalid \(name): each column maps to a value or to {operator: value} with operators =, !=, <, <=, >, >=, like, not_like, in, not_in, between, is_null.",
                code: "invalid_arguments")
        }
    }
}
