import MCP
import SwiftDBAI

/// One MCP tool over the database. The ``ToolRegistry`` lists the tools whose ``operation`` the
/// allowlist allows and dispatches calls to them by ``name``: one list for both.
protocol DatabaseTool: Sendable {
    /// The tool name in `tools/list`.
    var name: String { get }
    /// The operation the allowlist must allow for the tool to be listed and callable.
    var operation: SQLOperation { get }
    /// The tool's description, input and output schemas and annotations.
    var definition: Tool { get }
    /// Whether the tool can work in this session (beyond the allowlist). True by default.
    func isAvailable(_ availability: ToolAvailability) -> Bool
    /// Runs the tool.
    ///
    /// - Throws: ``ToolCallError``, ``SwiftDBAIError`` or ``ChatError`` for anything the caller
    ///   can fix (returned with `isError` and the error's stable code).
    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput
}

extension DatabaseTool {
    func isAvailable(_ availability: ToolAvailability) -> Bool { true }
}

/// What the session offers beyond the allowlist.
struct ToolAvailability: Sendable, Hashable {
    /// A language model answers `ask`: `--llm`, or the client's own through sampling.
    var hasLanguageModel: Bool

    /// Every tool available (for the manifest).
    static let everything = ToolAvailability(hasLanguageModel: true)
}

/// What a tool returns: the `structuredContent` and its compact text rendering.
struct ToolOutput: Sendable {
    var structured: Value
    var text: String
}

/// What a tool call may use.
struct ToolCallContext: Sendable {
    /// Runs every statement under the server's policy and limits.
    let executor: SQLExecutor
    /// Confirms destructive writes (elicitation, tokens) and runs them.
    let writes: WriteConfirmationFlow
    /// Sends `notifications/progress` for this request, when the client asked for them.
    let progress: ProgressReporter?
    /// The conversations of `ask` and how to start one; nil without a language model.
    var chat: ChatContext? = nil
    /// The names the client knows the tools by (for messages that name a tool).
    var naming: ToolNaming = .plain
}

/// What `ask` needs: its conversations and a way to start a new one with the session's model.
struct ChatContext: Sendable {
    let conversations: ConversationStore
    let makeEngine: @Sendable () -> ChatEngine
}
