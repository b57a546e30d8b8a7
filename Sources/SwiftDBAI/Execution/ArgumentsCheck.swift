/// Checks that the values given match the parameters a statement expects, with a message that
/// says what is missing — before SQLite reports a terse misuse error.
enum ArgumentsCheck {
    static func validate(_ arguments: SQLArguments, for statement: ClassifiedStatement) throws(SwiftDBAIError) {
        switch arguments {
        case .positional(let values):
            let named = statement.parameterNames.compactMap { $0 }.filter { !$0.hasPrefix("?") }
            if !named.isEmpty, !values.isEmpty {
                throw .invalidRequest(
                    "The statement uses named parameters (\(named.joined(separator: ", "))); pass params as an object keyed by name.")
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
                    "Missing values for parameter(s) \(missing.joined(separator: ", ")). Named values bind :name, @name and $name parameters; use an array for ? parameters.")
            }
        }
    }

    /// A parameter name without its `:`, `@` or `$` prefix.
    static func bareName(_ name: String) -> String {
        name.first.map { ":@$".contains($0) } == true ? String(name.dropFirst()) : name
    }
}
