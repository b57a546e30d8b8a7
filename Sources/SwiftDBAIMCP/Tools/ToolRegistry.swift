import MCP
import SwiftDBAI

/// The tools of the server: one list that produces both `tools/list` and the call dispatch.
struct ToolRegistry: Sendable {
    /// Every tool the server knows, in listing order.
    let tools: [any DatabaseTool]
    /// The operations the server allows; tools needing others are neither listed nor callable.
    let allowlist: OperationAllowlist
    /// The names clients list and call the tools by.
    let naming: ToolNaming

    init(allowlist: OperationAllowlist, naming: ToolNaming = .plain, tools: [any DatabaseTool] = ToolRegistry.databaseTools) {
        self.allowlist = allowlist
        self.naming = naming
        self.tools = tools
    }

    /// The tool a client calls by `name` (with the prefix, if any).
    func tool(named name: String) -> (any DatabaseTool)? {
        guard let builtIn = naming.builtInName(name) else { return nil }
        return tools.first { $0.name == builtIn }
    }

    /// The built-in database tools.
    static let databaseTools: [any DatabaseTool] = [
        DescribeSchemaTool(), QueryTool(), AggregateTool(), InsertTool(), UpdateTool(), DeleteTool(), AskTool(),
    ]

    /// The tools the allowlist enables and the session can serve.
    func enabledTools(_ availability: ToolAvailability) -> [any DatabaseTool] {
        tools.filter { allowlist.allows($0.operation) && $0.isAvailable(availability) }
    }

    /// How calls of a tool take their turn among the requests: a tool that writes runs alone, in
    /// the order received; a read (and `ask`, whose writes are confirmed one by one) shares it.
    func turnKind(of name: String) -> TurnQueue.Kind {
        guard let tool = tool(named: name) else { return .shared }
        return tool.operation.isWrite ? .exclusive : .shared
    }

    /// The `tools/list` result.
    func listTools(_ availability: ToolAvailability) -> [Tool] {
        enabledTools(availability).map { $0.definition.named(naming.name($0.name)) }
    }

    /// Dispatches a `tools/call`.
    ///
    /// - Throws: `MCPError.invalidParams` for an unknown or disabled tool (the message names the
    ///   flag that enables it); a `CancellationError` propagates. Every other failure is a result
    ///   with `isError: true` and its stable code (a cancelled call's result is never sent: the
    ///   transport answers nothing to a cancelled request).
    func call(
        _ name: String, arguments: [String: Value]?, availability: ToolAvailability, context: ToolCallContext
    ) async throws -> CallTool.Result {
        guard let tool = tool(named: name) else {
            let available = enabledTools(availability).map { naming.name($0.name) }
            throw MCPError.invalidParams("Unknown tool \(name). Available tools: \(available.joined(separator: ", ")).")
        }
        guard allowlist.allows(tool.operation) else {
            throw MCPError.invalidParams(Self.disabledMessage(for: tool, named: name, allowlist: allowlist))
        }
        guard tool.isAvailable(availability) else {
            throw MCPError.invalidParams(Self.unavailableMessage(named: name))
        }
        var context = context
        context.naming = naming
        do {
            let output = try await tool.call(ToolArguments(arguments), context: context)
            return Self.makeResult([.text(text: output.text, annotations: nil, _meta: nil)], output.structured, nil, nil)
        } catch let error as ToolCallError {
            return Self.errorResult(error)
        } catch let error as SwiftDBAIError {
            return Self.errorResult(ToolCallError(error))
        } catch let error as ChatError {
            return Self.errorResult(ToolCallError(error))
        } catch let error where !(error is CancellationError) {
            return Self.errorResult(ToolCallError("The tool failed: \(error).", code: .internalError))
        }
    }

    /// A result with `isError: true` and the message as text. The stable reason code goes in
    /// `_meta` (structured content is left out: it would not match the tool's output schema).
    static func errorResult(_ error: ToolCallError) -> CallTool.Result {
        let meta = error.code.map { Metadata(additionalFields: [ToolRegistry.errorCodeKey: .string($0.rawValue)]) }
        return CallTool.Result(
            content: [.text(text: error.message, annotations: nil, _meta: nil)], isError: true, _meta: meta)
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
    /// The same tool under another name.
    func named(_ name: String) -> Tool {
        Tool(
            name: name, title: title, description: description, inputSchema: inputSchema, annotations: annotations,
            outputSchema: outputSchema, icons: icons, _meta: _meta)
    }
}
