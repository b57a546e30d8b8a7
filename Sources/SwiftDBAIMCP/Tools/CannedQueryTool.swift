import MCP
import SwiftDBAI

/// A canned query of the metadata (`databases → NAME → queries → QUERY`), served as a tool of its
/// own: `QUERY` with one database, `NAME_QUERY` with several (after `--tool-prefix`, if any).
///
/// Every named parameter of its SQL (`:artist`, `@artist`, `$artist`) is a required string
/// argument, bound to the statement, never spliced into it. A read runs as `query` does; a write
/// (`write: true`) runs as the write tools do: classified, authorized and confirmed in the
/// same way, and listed only when the allowlist permits its operation.
struct CannedQueryTool: DatabaseTool {
    /// The name clients list and call it by.
    let name: String
    /// Its place in the metadata file, for messages.
    let entry: String
    let query: DatasetteMetadata.CannedQuery
    /// The database it runs on.
    let database: String
    /// What the statement does, as classified when the server started.
    let operation: SQLOperation
    /// Everything the statement does (an upsert: insert and update).
    let operations: Set<SQLOperation>
    /// The tool's arguments: the statement's parameter names without their `:`, `@` or `$`.
    let parameters: [String]

    var scope: DatabaseScope { .fixed(database) }

    /// The argument that carries a confirmation token (writes only).
    static let confirmArgument = "confirm"

    /// The tool of a canned query, checked against the database; nil when the allowlist does not
    /// permit its operation (the tool is then not served).
    ///
    /// - Throws: ``DBAIServerConfigurationError/metadata(file:entry:reason:)`` when the name
    ///   cannot name a tool, the SQL does not compile or is refused by the policy, `write`
    ///   disagrees with what the statement does, or a parameter is positional or oddly named.
    static func make(
        _ query: DatasetteMetadata.CannedQuery, database: String, qualified: Bool, executor: SQLExecutor,
        naming: ToolNaming, file: String
    ) throws(DBAIServerConfigurationError) -> CannedQueryTool? {
        let entry = "databases.\(database).queries.\(query.name)"
        func fail(_ reason: String) -> DBAIServerConfigurationError { .metadata(file: file, entry: entry, reason: reason) }
        let name = naming.name(qualified ? "\(database)_\(query.name)" : query.name)
        guard isToolName(query.name), name.count <= maximumNameLength else {
            throw fail("\(name) cannot name a tool: use letters, digits, _ and - in the query's name, "
                + "at most \(maximumNameLength) characters in all (with the database name and tool prefix)")
        }
        let statement = try executor.classifyMetadataSQL(query.sql, fail: fail)
        let writes = statement.operation.isWrite
        if query.write, !writes {
            throw fail("write: true, but the statement only reads; remove write: true")
        }
        if !query.write, writes {
            throw fail("the statement writes (\(statement.operation.sqlKeyword)); mark the query write: true")
        }
        guard statement.operations.allSatisfy(executor.policy.allowlist.allows) else { return nil }
        try executor.authorizeMetadataSQL(statement, fail: fail)
        var parameters: [String] = []
        for parameter in statement.parameterNames {
            guard let parameter, let sigil = parameter.first, ":@$".contains(sigil) else {
                throw fail("the SQL has a positional parameter (?): name every parameter, as :name")
            }
            let argument = String(parameter.dropFirst())
            guard isArgumentName(argument) else {
                throw fail("the parameter \(parameter) cannot name a tool argument: use letters, digits and _")
            }
            guard !(writes && argument == confirmArgument) else {
                throw fail("the parameter :\(confirmArgument) is reserved for the confirmation token of a write; rename it")
            }
            if !parameters.contains(argument) { parameters.append(argument) }
        }
        return CannedQueryTool(
            name: name, entry: entry, query: query, database: database, operation: statement.operation,
            operations: statement.operations, parameters: parameters)
    }

    /// The longest tool name OpenAI and Gemini accept.
    static let maximumNameLength = 64

    private static func isToolName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
    }

    private static func isArgumentName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
        }
    }

    /// The result view shows a read's rows (a write's outcome is not a table).
    var showsResultView: Bool { !operation.isWrite }

    /// Whether a read's result pages with a `cursor` argument (not when a parameter of the
    /// query takes that name).
    var pages: Bool { !operation.isWrite && !parameters.contains("cursor") }

    var definition: Tool {
        var properties: [(String, Value)] = parameters.map { parameter in
            (parameter, InputSchema.scalar("string", "Bound to :\(parameter) in the query."))
        }
        if operation.isWrite { properties.append((Self.confirmArgument, InputSchema.confirm)) }
        if pages { properties.append(("cursor", ResultCursor.argument)) }
        var description = query.description.map { $0 + "\n\n" } ?? ""
        description += operation.isWrite
            ? "A predefined \(operation.sqlKeyword) on the database \(database); destructive changes are confirmed first. "
            : "A predefined read-only query on the database \(database). "
        description += "Its SQL:\n\(query.sql)"
        return Tool(
            name: name,
            title: query.title ?? query.name,
            description: description,
            inputSchema: InputSchema.object(properties),
            annotations: operation.isWrite
                ? .init(readOnlyHint: false, destructiveHint: operation != .insert, idempotentHint: false, openWorldHint: false)
                : .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false),
            outputSchema: operation.isWrite ? ToolSchemas.writeOutput : ToolSchemas.rowsOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        var values: [String: SQLValue] = [:]
        var missing: [String] = []
        for parameter in parameters {
            switch arguments.raw[parameter] {
            case .string(let text)?: values[parameter] = .text(text)
            case .int(let number)?: values[parameter] = .text(String(number))
            case .double(let number)?: values[parameter] = .text(number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number))
            case .bool(let flag)?: values[parameter] = .text(flag ? "1" : "0")
            case nil, .null?: missing.append(parameter)
            default:
                throw ToolCallError("\(parameter) must be a string.", code: .invalidArguments)
            }
        }
        guard missing.isEmpty else {
            throw ToolCallError(
                "\(name) needs \(missing.joined(separator: ", ")) (every parameter of the query is required).",
                code: .invalidArguments)
        }
        let executor = context.executor
        if operation.isWrite {
            return try await context.writes.run(
                [BoundStatement(sql: query.sql, arguments: .named(values))], operation: operation, tool: name,
                token: try arguments.string(Self.confirmArgument))
        }
        guard pages else {
            let result = try await context.reading(query.sql, arguments: .named(values)) {
                try await ProgressReporter.reporting(context.progress) {
                    try await executor.query(query.sql, arguments: .named(values))
                }
            }
            return .rows(result, limits: executor.limits, budget: context.budget)
        }
        // A cursor is bound to the values exactly as bound (a blank string, a :max_rows parameter).
        let identity = values.mapValues { value -> Value in if case .text(let text) = value { .string(text) } else { .null } }
        return try await context.reading(query.sql, arguments: .named(values)) {
            try await ResultCursor.pagedRead(
                tool: name, shownAs: name, arguments: arguments, identity: identity, bound: .named(values), context: context
            ) { position in
                try await ProgressReporter.reporting(context.progress) {
                    try await executor.query(query.sql, arguments: .named(values), after: position)
                }
            }
        }
    }
}
