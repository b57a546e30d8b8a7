import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIMCPKernel

/// One MCP tool over the database. The ``ToolRegistry`` lists the tools whose ``operation`` the
/// allowlist allows and dispatches calls to them by ``name``: one list for both.
protocol DatabaseTool: Sendable {
    /// The tool name in `tools/list`.
    var name: String { get }
    /// The operation the allowlist must allow for the tool to be listed and callable.
    var operation: SQLOperation { get }
    /// Every operation a call runs (an upsert both inserts and updates); `[operation]` by
    /// default. A caller's scopes must grant each (``AccessScope``).
    var operations: Set<SQLOperation> { get }
    /// The tool's description, input and output schemas and annotations.
    var definition: Tool { get }
    /// Whether the tool can work in this session (beyond the allowlist). True by default.
    func isAvailable(_ availability: ToolAvailability) -> Bool
    /// Whether the result view (MCP Apps) shows the tool's results. False by default.
    var showsResultView: Bool { get }
    /// Which database a call works on, when the server has several. `.required` by default.
    var scope: DatabaseScope { get }
    /// Runs the tool on one database.
    ///
    /// - Throws: ``ToolCallError``, ``SwiftDBAIError`` or ``ChatError`` for anything the caller
    ///   can fix (returned with `isError` and the error's stable code).
    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput
    /// Runs a tool of scope `.optional` called without a `database` while the server has
    /// several: it works across them (`describe_schema` lists them; `ask` picks one).
    func callAcrossDatabases(_ arguments: ToolArguments, catalog: DatabaseCatalog) async throws -> ToolOutput
}

extension DatabaseTool {
    func isAvailable(_ availability: ToolAvailability) -> Bool { true }
    var operations: Set<SQLOperation> { [operation] }
    var showsResultView: Bool { false }
    var scope: DatabaseScope { .required }
    func callAcrossDatabases(_ arguments: ToolArguments, catalog: DatabaseCatalog) async throws -> ToolOutput {
        throw ToolCallError(catalog.missingDatabaseMessage, code: .invalidArguments)
    }
}

/// What the session offers beyond the allowlist.
struct ToolAvailability: Sendable, Hashable {
    /// A language model answers `ask`: `--llm`, or the client's own through sampling.
    var hasLanguageModel: Bool
    /// The client shows MCP Apps views (it declared the extension, and `--no-ui` is not set):
    /// the read tools link to the result view, whose app-only tool is listed.
    var showsApps = false
    /// The operations the caller may run: the allowlist's narrowed to their OAuth scopes; nil
    /// for no narrowing (stdio, the static token).
    var granted: Set<SQLOperation>? = nil

    /// True when the caller's scopes grant every operation of the tool.
    func grants(_ tool: any DatabaseTool) -> Bool {
        guard let granted else { return true }
        return tool.operations.isSubset(of: granted)
    }

    /// Every tool available (for the manifest).
    static let everything = ToolAvailability(hasLanguageModel: true)
}

/// What a tool returns: the `structuredContent` and its compact text rendering.
struct ToolOutput: Sendable {
    var structured: Value
    var text: String
    /// Content after the text: the `resource_link` of an export.
    var links: [Tool.Content] = []
    /// What the result view needs (set only for sessions that show it).
    var view: ResultViewSource?
}

/// What a tool call may use.
struct ToolCallContext: Sendable {
    /// The database the call works on.
    let database: ServedDatabase
    /// Runs every statement under the server's policy and limits, narrowed to what the caller
    /// may run (``granted``).
    var executor: SQLExecutor { database.executor(granting: granted, revealingMasked: revealsMasked) }
    /// Confirms destructive writes (elicitation, tokens) and runs them.
    let writes: WriteConfirmationFlow
    /// The flow of the writes a language model wrote (`ask`): never with masked columns in the
    /// clear, whoever asks.
    var modelWrites: WriteConfirmationFlow {
        var flow = writes
        flow.executor = database.executor(granting: granted)
        return flow
    }
    /// Sends `notifications/progress` for this request, when the client asked for them.
    let progress: ProgressReporter?
    /// The conversations of `ask` and how to start one; nil without a language model.
    var chat: ChatContext? = nil
    /// The names the client knows the tools by (for messages that name a tool).
    var naming: ToolNaming = .plain
    /// What one answer may take (`--max-result-bytes`).
    var budget: AnswerBudget { database.budget }
    /// Where `export` writes; nil outside a server (tests of other tools).
    var exports: ExportDestination? = nil
    /// The session shows the result view (MCP Apps): reads add what it needs.
    var showsApps = false
    /// The operations an OAuth caller's scopes grant (``AccessScope``); nil for no narrowing.
    var granted: Set<SQLOperation>? = nil
    /// The OAuth caller was granted `dbai:unmask`: masked columns read in the clear.
    var revealsMasked = false
    /// The OAuth caller's person key (``CallerIdentity/personKey``), whose exports are theirs alone.
    var owner: String? = nil
    /// Where a read path notes a write statement it refused, for the audit log (`--audit-log`).
    var refusedWrite: RefusedWrite? = nil
}

/// What `ask` needs: its conversations and a way to start a new one with the session's model.
struct ChatContext: Sendable {
    let conversations: ConversationStore
    /// The client of the call: the conversation talks to it while answering this question.
    var peer: Peer? = nil
    /// The client of the call takes `elicitation/create`: the model's writes are confirmed so.
    var canElicit = false
    /// Whose conversations the call reads and starts (an OAuth caller's are theirs alone).
    var owner: ConversationStore.Owner = .none
    /// A new conversation's engine on a database, talking to clients through the link.
    let makeEngine: @Sendable (ServedDatabase, ConversationLink, [ChatEngine.Turn]) -> ChatEngine
}
