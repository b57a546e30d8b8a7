import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

/// The tools of the server: one list that produces both `tools/list` and the call dispatch.
struct ToolRegistry: Sendable {
    /// Every built-in tool, in listing order.
    let tools: [any DatabaseTool]
    /// The canned queries of the metadata, listed after the built-in tools.
    let cannedQueries: [CannedQueryTool]
    /// The operations the server allows; tools needing others are neither listed nor callable.
    let allowlist: OperationAllowlist
    /// The names clients list and call the tools by.
    let naming: ToolNaming
    /// The databases served, by name; with several, the database tools take a `database` argument.
    let databaseNames: [String]
    /// The arguments each tool takes: the properties of its input schema, read at its first call
    /// (not at start-up, which builds no tool definition). A call with any other argument is
    /// refused, so a typo (`wher`) is not silently ignored.
    private let argumentNames = ToolArgumentNames()

    init(
        allowlist: OperationAllowlist, naming: ToolNaming = .plain, tools: [any DatabaseTool] = ToolRegistry.databaseTools,
        cannedQueries: [CannedQueryTool] = [], databaseNames: [String] = []
    ) {
        self.allowlist = allowlist
        self.naming = naming
        self.tools = tools
        self.cannedQueries = cannedQueries
        self.databaseNames = databaseNames
    }

    /// The property names of a tool's input schema.
    static func argumentNames(of definition: Tool) -> Set<String> {
        Set(definition.inputSchema.objectValue?["properties"]?.objectValue?.keys ?? [:].keys)
    }

    /// True when the tools take a `database` argument.
    var servesSeveralDatabases: Bool { databaseNames.count > 1 }

    /// The argument that names the database of a call, with several databases.
    static let databaseArgument = "database"

    /// The tool a client calls by `name` (with the prefix, if any).
    func tool(named name: String) -> (any DatabaseTool)? {
        if let canned = cannedQueries.first(where: { $0.name == name }) { return canned }
        guard let builtIn = naming.builtInName(name) else { return nil }
        return tools.first { $0.name == builtIn }
    }

    /// The name a client sees for a tool.
    func clientName(of tool: any DatabaseTool) -> String {
        tool is CannedQueryTool ? tool.name : naming.name(tool.name)
    }

    /// The built-in database tools.
    static let databaseTools: [any DatabaseTool] = [
        DescribeSchemaTool(), QueryTool(), ExportTool(), AggregateTool(), InsertTool(), UpdateTool(), DeleteTool(), AskTool(),
        ViewRowsTool(),
    ]

    /// The tools the allowlist enables and the session can serve.
    func enabledTools(_ availability: ToolAvailability) -> [any DatabaseTool] {
        (tools + cannedQueries.map { $0 as any DatabaseTool })
            .filter { allowlist.allows($0.operation) && availability.grants($0) && $0.isAvailable(availability) }
    }

    /// How calls of a tool take their turn among the requests: a tool that writes runs alone, in
    /// the order received; a read (and `ask`, whose writes are confirmed one by one) shares it.
    func turnKind(of name: String) -> TurnQueue.Kind {
        guard let tool = tool(named: name) else { return .shared }
        return tool.operation.isWrite ? .exclusive : .shared
    }

    /// The `tools/list` result.
    func listTools(_ availability: ToolAvailability) -> [Tool] {
        enabledTools(availability).map { tool in
            var definition = tool.definition.named(clientName(of: tool))
            if availability.showsApps, tool.showsResultView { definition._meta = AppsExtension.toolMeta(definition._meta) }
            if servesSeveralDatabases {
                switch tool.scope {
                case .required: definition = definition.addingDatabaseArgument(databaseNames, required: true)
                case .optional: definition = definition.addingDatabaseArgument(databaseNames, required: false)
                case .fixed: break
                }
            }
            return definition
        }
    }

    /// Dispatches a `tools/call`.
    ///
    /// - Throws: `ProtocolError.invalidParams` for an unknown or disabled tool (the message names the
    ///   flag that enables it); a `CancellationError` propagates. Every other failure is a result
    ///   with `isError: true` and its stable code (a cancelled call's result is never sent: the
    ///   transport answers nothing to a cancelled request).
    func call(
        _ name: String, arguments: [String: Value]?, availability: ToolAvailability, catalog: DatabaseCatalog
    ) async throws -> CallTool.Result {
        guard let tool = tool(named: name) else { throw unknownTool(name, availability) }
        guard allowlist.allows(tool.operation) else {
            throw ProtocolError.invalidParams(detail: Self.disabledMessage(for: tool, named: name, allowlist: allowlist))
        }
        guard availability.grants(tool) else {
            // Over HTTP the caller got 403 insufficient_scope before this (the step-up).
            let needed = Set(tool.operations.map(AccessScope.init)).sorted().map(\.rawValue).joined(separator: " ")
            throw ProtocolError.invalidParams(detail: "\(Echo.clipped(name)) needs the scope \(needed), which your access token does not grant; sign in again asking for it.")
        }
        guard tool.isAvailable(availability) else {
            // The view's own tool does not exist for a session that does not show the view.
            if tool is ViewRowsTool { throw unknownTool(name, availability) }
            throw ProtocolError.invalidParams(detail: Self.unavailableMessage(named: name))
        }
        do {
            var arguments = arguments ?? [:]
            var output: ToolOutput
            let database = try database(of: tool, arguments: &arguments, catalog: catalog)
            let toolArguments = ToolArguments(arguments)
            try toolArguments.requireOnly(argumentNames.names(of: tool, calledAs: name))
            if let database {
                output = try await tool.call(toolArguments, context: catalog.context(database))
            } else {
                output = try await tool.callAcrossDatabases(toolArguments, catalog: catalog)
            }
            let meta = viewMeta(&output, catalog: catalog)
            return Self.makeResult([.text(text: output.text, annotations: nil, _meta: nil)] + output.links, output.structured, nil, meta)
        } catch let error as ToolCallError {
            return Self.errorResult(error)
        } catch let error as SwiftDBAIError {
            return Self.errorResult(ToolCallError(error))
        } catch let error as ChatError {
            return Self.errorResult(ToolCallError(error))
        } catch let error as InputRequired {
            throw error
        } catch let error as ProtocolError {
            throw error
        } catch let error where !(error is CancellationError) {
            return Self.errorResult(ToolCallError("The tool failed: \(error).", code: .internalError))
        }
    }

    private func unknownTool(_ name: String, _ availability: ToolAvailability) -> ProtocolError {
        let available = enabledTools(availability).map(clientName(of:))
        return ProtocolError.invalidParams(detail: "Unknown tool \(Echo.clipped(name)). Available tools: \(available.joined(separator: ", ")).")
    }

    /// The result view's `_meta` of an output that has one (sessions that show the view), the
    /// text cut further when needed so that the whole answer still fits the budget. What the
    /// structured content leaves (less a cut text's note) bounds it: beyond, the fields for more
    /// rows (the statement, its values, the cursor) are left out and the view shows the rows
    /// without offering more; beyond again, there is no view `_meta` at all.
    private func viewMeta(_ output: inout ToolOutput, catalog: DatabaseCatalog) -> Metadata? {
        guard let view = output.view, let budget = catalog.databases.first?.budget else { return nil }
        let overhead = AnswerBudget.size(of: ResultViewSource.metaKey) + 16
        let room = min(budget.available / 4, budget.available - AnswerBudget.size(of: output.structured) - 256) - overhead
        var value = view.meta(several: servesSeveralDatabases, rowsTool: naming.name(ViewRowsTool.toolName))
        if AnswerBudget.size(of: value) > room, case .object(var fields) = value {
            for key in ["sql", "params", "source", "next_cursor"] { fields[key] = nil }
            if view.next != nil { fields["rows_missing"] = true }
            value = .object(fields)
        }
        guard AnswerBudget.size(of: value) <= room else { return nil }
        output = output.fitted(to: budget, reserving: AnswerBudget.size(of: value) + overhead)
        return Metadata(additionalFields: [ResultViewSource.metaKey: value])
    }

    /// The database a call works on, taking the `database` argument out of the arguments when
    /// the server serves several; nil for a tool of `.optional` scope called without one.
    ///
    /// - Throws: ``ToolCallError`` for a missing or unknown database.
    private func database(
        of tool: any DatabaseTool, arguments: inout [String: Value], catalog: DatabaseCatalog
    ) throws(ToolCallError) -> ServedDatabase? {
        if case .fixed(let name) = tool.scope {
            guard let database = catalog.database(named: name) else {
                throw ToolCallError("The database \(name) is not served.", code: .internalError)
            }
            return database
        }
        guard servesSeveralDatabases else {
            guard let only = catalog.databases.first else {
                throw ToolCallError("The server serves no database.", code: .internalError)
            }
            return only
        }
        let requested = arguments.removeValue(forKey: Self.databaseArgument)
        switch requested {
        case nil, .null?:
            break
        case .string(let text)?:
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if name.isEmpty { break }
            guard let database = catalog.database(named: name) else {
                throw ToolCallError(
                    "There is no database \(name). Databases: \(catalog.names.joined(separator: ", ")).", code: .invalidArguments)
            }
            return database
        default:
            throw ToolCallError(
                "database must be the name of a database: one of \(catalog.names.joined(separator: ", ")).", code: .invalidArguments)
        }
        guard tool.scope == .optional else {
            throw ToolCallError(catalog.missingDatabaseMessage, code: .invalidArguments)
        }
        return nil
    }

    /// A result with `isError: true` and the message as text. The stable reason code goes in
    /// `_meta` (structured content is left out: it would not match the tool's output schema).
    static func errorResult(_ error: ToolCallError) -> CallTool.Result {
        let meta = error.code.map { Metadata(additionalFields: [ToolRegistry.errorCodeKey: .string($0.rawValue)]) }
        return CallTool.Result(
            content: [.text(text: Self.bounded(error.message), annotations: nil, _meta: nil)], isError: true, _meta: meta)
    }

    /// The most bytes an error message takes as JSON: within the smallest answer budget (4096).
    static let errorMessageBytes = 3_000

    /// A message cut to ``errorMessageBytes``, saying so; most are far shorter.
    static func bounded(_ message: String) -> String {
        guard AnswerBudget.size(of: message) > errorMessageBytes else { return message }
        var kept = ""
        var size = 2
        for character in message {
            size += AnswerBudget.size(of: String(character)) - 2
            guard size <= errorMessageBytes - 40 else { break }
            kept.append(character)
        }
        return kept + "… (message cut)"
    }

    /// The SDK's non-throwing result initializer, named by its type: with a plain `Value` the
    /// compiler picks the generic initializer that re-encodes the value through JSON.
    private static let makeResult: @Sendable ([Tool.Content], Value?, Bool?, Metadata?) -> CallTool.Result =
        CallTool.Result.init(content:structuredContent:isError:_meta:)

    /// The `_meta` key of an error result's reason code.
    static let errorCodeKey = "io.github.swiftdbai/error_code"

    static func unavailableMessage(named name: String) -> String {
        "The tool \(name) needs a language model: start dbai-mcp with --llm PROVIDER:MODEL "
            + "(openai, anthropic, gemini, ollama, or openai-compatible with --llm-base-url), or use a client that supports MCP sampling."
    }

    static func disabledMessage(for tool: any DatabaseTool, named name: String, allowlist: OperationAllowlist) -> String {
        let needed = tool.operation
        let suggestion = switch needed {
        case .select: "readonly"
        case .insert, .update: "standard"
        case .delete: "unrestricted"
        }
        return "The tool \(name) is not enabled: this server allows \(allowlist) and \(name) needs \(needed.sqlKeyword). "
            + "Restart dbai-mcp with --allow \(suggestion) (or a list such as --allow \(allowlist.operations.union([needed]).sorted().map(\.rawValue).joined(separator: ",")))."
    }
}

extension Tool {
    /// The same tool with a `database` argument that takes one of `names`.
    func addingDatabaseArgument(_ names: [String], required: Bool) -> Tool {
        guard case .object(var schema) = inputSchema, case .object(var properties) = schema["properties"] else { return self }
        let choice = InputSchema.choice(
            names,
            required
                ? "The database to use."
                : "The database to use; null to \(name.hasSuffix("ask") ? "let the server choose from the question" : "list them all").")
        properties[ToolRegistry.databaseArgument] = required ? choice : InputSchema.optional(choice)
        schema["properties"] = .object(properties)
        schema["required"] = .array([.string(ToolRegistry.databaseArgument)] + (schema["required"]?.arrayValue ?? []))
        return Tool(
            name: name, title: title, description: description, inputSchema: .object(schema), annotations: annotations,
            outputSchema: outputSchema, icons: icons, _meta: _meta)
    }

    /// The same tool under another name.
    func named(_ name: String) -> Tool {
        Tool(
            name: name, title: title, description: description, inputSchema: inputSchema, annotations: annotations,
            outputSchema: outputSchema, icons: icons, _meta: _meta)
    }
}
