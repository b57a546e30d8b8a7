import GRDB

/// Values bound to a statement's parameters: positional (`?`) or named (`:name`).
public enum SQLArguments: Sendable, Hashable, Codable {
    /// Values for `?`, `?1`… parameters, in order.
    case positional([SQLValue])
    /// Values for `:name`, `@name` or `$name` parameters, keyed by name without its prefix.
    case named([String: SQLValue])

    /// No arguments.
    public static let none = SQLArguments.positional([])

    /// True when no value is given.
    public var isEmpty: Bool {
        switch self {
        case .positional(let values): values.isEmpty
        case .named(let values): values.isEmpty
        }
    }

    var statementArguments: StatementArguments {
        switch self {
        case .positional(let values):
            return StatementArguments(values)
        case .named(let values):
            var stripped: [String: SQLValue] = [:]
            for (key, value) in values {
                let name = key.first.map { ":@$".contains($0) } == true ? String(key.dropFirst()) : key
                stripped[name] = value
            }
            return StatementArguments(stripped)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let values = try? container.decode([SQLValue].self) {
            self = .positional(values)
        } else {
            self = .named(try container.decode([String: SQLValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .positional(let values): try container.encode(values)
        case .named(let values): try container.encode(values)
        }
    }
}

extension SQLArguments: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(arrayLiteral elements: SQLValue...) { self = .positional(elements) }
    public init(dictionaryLiteral elements: (String, SQLValue)...) {
        self = .named(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}

/// One SQL statement with the values bound to its parameters.
public struct BoundStatement: Sendable, Hashable {
    /// The SQL text of exactly one statement.
    public var sql: String
    /// The values bound to its parameters.
    public var arguments: SQLArguments

    /// Creates a bound statement.
    public init(sql: String, arguments: SQLArguments = .none) {
        self.sql = sql
        self.arguments = arguments
    }
}
