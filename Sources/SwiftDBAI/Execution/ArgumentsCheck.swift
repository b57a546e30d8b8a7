/// Checks that the values given match the parameters a statement expects, with a message that
/// says what is missing — before SQLite reports a terse misuse error.
enum ArgumentsCheck {
    static func validate(_ arguments: SQLArguments, for statement: ClassifiedStatement) throws(SwiftDBAIError) {
        try refuseNUL(arguments)
        switch arguments {
        case .positional(let values):
            let named = statement.parameterNames.compactMap { $0 }.filter { !$0.hasPrefix("?") }
            if !named.isEmpty, !values.isEmpty {
                throw .invalidRequest(
                    "The statement uses named parameters (\(named.joined(separator: ", "))); give the values by name: params as a list of {\"name\", \"value\"}.")
            }
            if named.isEmpty, values.count != statement.parameterCount {
                throw .invalidRequest(
                    "The statement expects \(statement.parameterCount) parameter value(s); \(values.count) given.")
            }
            if !named.isEmpty, values.isEmpty {
                throw .invalidRequest("The statement expects values for \(named.joined(separator: ", ")); none given.")
            }
        case .named(let values):
            let given = Set(values.keys.map(Self.bareName))
            let missing = statement.parameterNames.map { $0 ?? "?" }.filter { !given.contains(Self.bareName($0)) }
            if !missing.isEmpty {
                throw .invalidRequest(
                    "Missing values for parameter(s) \(missing.joined(separator: ", ")). Named values bind :name, @name and $name parameters; give a list of plain values for ? parameters.")
            }
        }
    }

    /// Refuses text values holding a NUL character: SQLite binds text up to the first NUL, so
    /// the rest would be dropped silently.
    static func refuseNUL(_ arguments: SQLArguments) throws(SwiftDBAIError) {
        let values: [(String, SQLValue)] = switch arguments {
        case .positional(let values): values.enumerated().map { ("parameter \($0.offset + 1)", $0.element) }
        case .named(let values): values.sorted { $0.key < $1.key }.map { ("parameter \($0.key)", $0.value) }
        }
        for (name, value) in values {
            if case .text(let text) = value, text.utf8.contains(0) {
                throw .invalidRequest(
                    "The value of \(name) holds a NUL character (\\0); SQLite would keep only the text before it. "
                        + "Remove it, or send the value as a blob ({\"base64\": \"…\"}). Nothing was changed.")
            }
        }
    }

    /// A parameter name without its `:`, `@` or `$` prefix.
    static func bareName(_ name: String) -> String {
        name.first.map { ":@$".contains($0) } == true ? String(name.dropFirst()) : name
    }
}
