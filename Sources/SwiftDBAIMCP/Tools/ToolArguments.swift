import Foundation
import MCP
import SwiftDBAI

/// The arguments of one tool call, with typed accessors whose errors name the argument and say
/// what it should be.
///
/// An argument that is `null`, a blank string, an empty list or an empty object counts as not
/// given: strict function-calling clients send every argument of the schema, and fill the ones
/// they mean to leave out with `null` (or `""` for a name).
struct ToolArguments: Sendable {
    /// The arguments given, without those that count as not given.
    let values: [String: Value]
    /// Every argument name the call carried, given or not.
    let names: Set<String>
    /// The arguments exactly as sent (an empty string is a value here).
    let raw: [String: Value]

    init(_ arguments: [String: Value]?) {
        let arguments = arguments ?? [:]
        raw = arguments
        names = Set(arguments.keys)
        values = arguments.filter { !Self.isNotGiven($0.value) }
    }

    /// Whether a top-level argument value means "not given".
    static func isNotGiven(_ value: Value) -> Bool {
        switch value {
        case .null: true
        case .string(let string): string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .array(let array): array.isEmpty
        case .object(let object): object.isEmpty
        default: false
        }
    }

    /// Refuses arguments the tool does not know, so a typo (`wher`) is not silently ignored.
    func requireOnly(_ known: Set<String>) throws(ToolCallError) {
        let unknown = names.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw ToolCallError(
                "Unknown argument(s) \(unknown.joined(separator: ", ")). Accepted: \(known.sorted().joined(separator: ", ")).",
                code: .invalidArguments)
        }
    }

    /// Whether the argument is given (not null, blank or empty).
    func has(_ name: String) -> Bool {
        values[name] != nil
    }

    func string(_ name: String) throws(ToolCallError) -> String? {
        guard let value = values[name] else { return nil }
        guard let string = value.stringValue else {
            throw ToolCallError("\(name) must be a string.", code: .invalidArguments)
        }
        return string
    }

    func requiredString(_ name: String) throws(ToolCallError) -> String {
        guard let string = try string(name) else {
            throw ToolCallError("\(name) is required and must be a non-empty string.", code: .invalidArguments)
        }
        return string
    }

    func bool(_ name: String) throws(ToolCallError) -> Bool? {
        guard let value = values[name] else { return nil }
        guard let bool = value.boolValue else {
            throw ToolCallError("\(name) must be true or false.", code: .invalidArguments)
        }
        return bool
    }

    func integer(_ name: String, minimum: Int = 1) throws(ToolCallError) -> Int? {
        guard let value = values[name] else { return nil }
        let integer: Int? = switch value {
        case .int(let int): int
        case .double(let double) where double.rounded() == double && abs(double) < 1e15: Int(double)
        default: nil
        }
        guard let integer, integer >= minimum else {
            throw ToolCallError("\(name) must be an integer of at least \(minimum).", code: .invalidArguments)
        }
        return integer
    }

    /// A list of names: one string, or a list of strings (blank ones are ignored).
    func stringList(_ name: String) throws(ToolCallError) -> [String] {
        try nameList(name, what: "a column name or a list of column names")
    }

    /// A list of names: one string, or a list of strings (blank ones are ignored); `what` says
    /// what the argument must be when it is neither.
    func nameList(_ name: String, what: String) throws(ToolCallError) -> [String] {
        guard let value = values[name] else { return [] }
        if let single = value.stringValue { return [single] }
        guard let array = value.arrayValue, let strings = Optional(array.compactMap(\.stringValue)),
              strings.count == array.count else {
            throw ToolCallError("\(name) must be \(what).", code: .invalidArguments)
        }
        return strings.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }
}
