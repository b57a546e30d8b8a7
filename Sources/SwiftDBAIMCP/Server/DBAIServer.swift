import Foundation
import Logging
import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives
import Tracing
import SwiftDBAIMCPKernel

/// The `dbai-mcp` server: the database tools, resources and confirmation flow over MCP.
///
/// ```swift
/// let server = try DBAIServer(configuration: DBAIServerConfiguration(databasePath: "app.sqlite"))
/// try await server.run(transport: FastStdioTransport())
/// ```
public final class DBAIServer: Sendable {
    /// The server name announced in `initialize`.
    public static let name = "dbai-mcp"
    /// The server version announced in `initialize` and printed by `--version`.
    public static let version = "0.1.0"

    /// The configuration the server runs with.
    public let configuration: DBAIServerConfiguration
    /// The databases served, in the order given.
    let databases: [ServedDatabase]
    let registry: ToolRegistry
    let logger: Logger
    /// The system prompts the `--llm` model has answered, shared by every conversation.
    let readPrompts = ReadPrompts()
    /// The files of `export`, shared by every session (each under an unguessable id).
    let exports: ExportDestination
    /// The handles stateless (2026-07-28) requests share: conversation ids, confirmation tokens.
    let statelessState: ClientSession
    /// Signs the `requestState` of 2026-07-28 confirmations: a key of this process, or derived
    /// from `--state-secret-file`.
    let requestStates: RequestStateSigner
    /// The confirmation ledger replicas share (`--state-secret-file` with `--state-dir`); nil:
    /// tokens live in the process.
    let sharedLedger: ConfirmationLedgerFile?
    /// A readiness check of the database files is running (``readiness(within:)``).
    let readinessProbe = Mutex(false)
    /// The audit log (`--audit-log`); nil records nothing.
    let audit: AuditLog?
    /// The metrics of each request (`recordsMetrics`), shared by every dispatcher; nil records
    /// nothing.
    let metrics: OperationMetrics?
    /// The tool names clients know, for the labels of metrics and the names of spans.
    let clientToolNames: Set<String>
    /// Where `ask` conversations outlive the process (`--state-dir`); nil for memory only.
    let conversationArchive: ConversationArchive?

    /// Opens the databases and checks the configuration and the metadata against their schemas.
    ///
    /// - Throws: ``DBAIServerConfigurationError`` for a missing or non-SQLite file, an extension
    ///   that does not load, an unknown table in `--tables`/`--write-tables`, writable tables
    ///   without writes, a bad or duplicate database name, metadata that does not fit, or an audit
    ///   log that cannot be written.
    public init(configuration: DBAIServerConfiguration, logger: Logger = Logger(label: "dbai-mcp")) throws(DBAIServerConfigurationError) {
        self.configuration = configuration
        self.logger = logger
        if let limit = configuration.sqliteMemoryLimit { SQLiteMemoryLimit.apply(bytes: limit) }
        databases = try ServedDatabase.openAll(configuration)
        audit = try configuration.audit.map { (settings) throws(DBAIServerConfigurationError) in try AuditLog(settings) }
        if let audit { try AuditRecovery.complete(audit, databases: databases, logger: logger) }
        conversationArchive = try Self.openArchive(configuration.conversationArchive, apartFrom: databases, logger: logger)
        (requestStates, sharedLedger) = try Self.sharedState(configuration, apartFrom: databases)
        exports = ExportDestination(
            store: ExportStore(settings: configuration.exports),
            directory: try configuration.exports.directory.map { (path) throws(DBAIServerConfigurationError) in try ExportDirectory(path) })
        statelessState = ClientSession(
            databases: databases.map(\.name), stateless: true, archive: conversationArchive, ledger: sharedLedger)
        registry = ToolRegistry(
            allowlist: configuration.allowlist, naming: configuration.toolNaming,
            cannedQueries: databases.flatMap(\.cannedQueries), databaseNames: databases.map(\.name))
        clientToolNames = Set(registry.enabledTools(ToolAvailability(hasLanguageModel: true, showsApps: true)).map(registry.clientName(of:)))
        metrics = configuration.recordsMetrics ? OperationMetrics(toolNames: clientToolNames) : nil
    }

    /// The conversation archive of `--state-dir`, never one of the served databases.
    private static func openArchive(
        _ settings: ConversationArchiveSettings?, apartFrom databases: [ServedDatabase], logger: Logger
    ) throws(DBAIServerConfigurationError) -> ConversationArchive? {
        guard let settings else { return nil }
        return try ConversationArchive(settings, apartFrom: databases.map { AuditRecord.absolutePath($0.path) }, logger: logger)
    }

    /// The `requestState` signer and the confirmation ledger: shared by the replicas started with
    /// the same `--state-secret-file` and `--state-dir`, or the process's own.
    private static func sharedState(
        _ configuration: DBAIServerConfiguration, apartFrom databases: [ServedDatabase]
    ) throws(DBAIServerConfigurationError) -> (RequestStateSigner, ConfirmationLedgerFile?) {
        guard let path = configuration.stateSecretFile else { return (RequestStateSigner(), nil) }
        let secret = try StateSecret(path: path)
        guard let directory = configuration.conversationArchive?.directory else {
            throw .stateSecret(
                path, reason: "replicas also need --state-dir DIR, on the host's own disk, where they record the confirmations used")
        }
        let ledger = try ConfirmationLedgerFile(directory: directory, apartFrom: databases.map { AuditRecord.absolutePath($0.path) })
        return (RequestStateSigner(secret: secret.bytes), ledger)
    }

    /// How `ask` talks to its model about a database: with that database's examples (checked at
    /// start-up); with `--no-confirm`, the model's writes are not confirmed either.
    func chatConfiguration(for database: ServedDatabase) -> ChatConfiguration {
        var chat = configuration.chat
        chat.confirmsWrites = chat.confirmsWrites && configuration.confirmsDestructiveWrites
        chat.examples = database.examples
        return chat
    }

    /// The executor of `ask`'s statements on a database: every write the model wrote is
    /// confirmed by the user through elicitation, shown a preview, as the write tools confirm
    /// theirs (with `--no-confirm`, nothing is asked). The client of each question decides
    /// (a conversation may be continued by another client): without elicitation (or under
    /// 2026-07-28, where the server cannot ask mid-call) such a write is refused with the SQL to
    /// run by hand, or confirmed by the round trip.
    func chatExecutor(_ executor: SQLExecutor, link: ConversationLink) -> SQLExecutor {
        let executor = audit == nil ? executor : executor.withJournal(LinkedAuditJournal(
            link: link, unconfirmed: !(configuration.chat.confirmsWrites && configuration.confirmsDestructiveWrites)))
        guard configuration.confirmsDestructiveWrites else { return executor.confirming([]) }
        return executor.withDelegate(ElicitationConfirmer(
            elicit: Self.elicitation { link.peer },
            preamble: "A language model wrote this change to answer a question.", canAsk: { link.canElicit }))
    }

    /// Serves MCP over the transport until the client disconnects (end of input), a signal in
    /// `shutdownSignals` arrives, or the client stops reading the output.
    ///
    /// On a signal or a closed output, every running statement is interrupted (writes roll back)
    /// and the connections are closed before it returns, so no hot journal is left behind.
    ///
    /// - Throws: an error when the transport cannot start.
    public func run(transport: any Transport, shutdownSignals: [Int32] = []) async throws {
        try await transport.connect()
        let dispatcher = sessionDispatcher(transport: .pipe) { [databases] _ in
            for database in databases { database.executor.interruptAll() }
        }
        let signals = ShutdownSignals(shutdownSignals) { signal in
            Task { await dispatcher.shutDown(reason: "signal \(signal)") }
        }
        logger.info("dbai-mcp serving \(databases.map(\.path).joined(separator: ", ")) (\(configuration.allowlist))")
        let opened = ContinuousClock.now
        await dispatcher.serve(transport)
        sessionEnded(after: .now - opened, transport: .pipe)
        signals.cancel()
        await transport.disconnect()
        await closeDatabases()
    }

    /// Whether the server can serve calls now: every database file opens and reads (each
    /// afresh, all at once, not behind the calls in flight), the audit log, if any, can be
    /// appended to, and the confirmation ledger replicas share, if any, can be written; not ready
    /// when that takes longer than `limit`. The reason is for the
    /// server's log, never for a probe's answer.
    package func readiness(within limit: Duration = .seconds(2)) async -> (ready: Bool, reason: String?) {
        if let audit {
            do {
                try audit.checkWritable()
            } catch {
                return (false, error.description)
            }
        }
        // The files are examined on threads of their own (a hung file system must not hold the
        // server's), and never twice at once: a check still running answers "not ready".
        guard readinessProbe.withLock({ running in
            defer { running = true }
            return !running
        }) else {
            return (false, "the previous check of the database files has not returned (a file system that does not answer?)")
        }
        let databases = databases
        let ledger = sharedLedger
        let probe = readinessProbe
        let failure = Mutex<String?>(nil)
        let finished: Void? = try? await firstOutcome(within: limit) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    defer { probe.withLock { $0 = false } }
                    if let reason = ledger?.unwritableReason() { failure.withLock { $0 = reason } }
                    DispatchQueue.concurrentPerform(iterations: databases.count) { index in
                        do {
                            try databases[index].executor.checkReadable()
                        } catch {
                            failure.withLock { $0 = $0 ?? "database \(databases[index].name) cannot be read: \(error)" }
                        }
                    }
                    continuation.resume()
                }
            }
        }
        guard finished != nil else { return (false, "the databases did not answer within \(limit)") }
        let reason = failure.withLock { $0 }
        return (reason == nil, reason)
    }

    /// Has the `--llm` model read the system prompt of `ask` on the first database, so the first
    /// question does not wait for it (a local model on a CPU can take a minute over a large
    /// schema). Logs the outcome; does nothing without `--llm`.
    public func warmUpLanguageModel() async {
        guard let model = configuration.languageModel, let database = databases.first else { return }
        let engine = ChatEngine(
            executor: database.executor, model: model, configuration: chatConfiguration(for: database), readPrompts: readPrompts)
        let start = ContinuousClock.now
        do {
            try await engine.warmUp()
            logger.info("the language model read the schema prompt of \(database.name) in \((ContinuousClock.now - start).roundedMilliseconds) ms")
        } catch {
            logger.warning("warming up the language model failed: \(error.description)")
        }
    }

    /// The dispatcher of one client's session (stdio, or one HTTP session): its handshake, log
    /// level, conversations and confirmation tokens, over the databases all sessions share.
    /// Stateless requests that arrive on it are served as well.
    ///
    /// - Parameters:
    ///   - transport: what carries the session, for its metrics and spans.
    ///   - sessionID: the HTTP session's id (`mcp.session.id` of its spans).
    ///   - onShutdown: called once when the session shuts down early (a signal, an output the
    ///     client closed), after its calls were cancelled.
    package func sessionDispatcher(
        transport: NetworkTransport, sessionID: String? = nil, onShutdown: @escaping @Sendable (String) -> Void = { _ in }
    ) -> MessageDispatcher {
        let session = ClientSession(databases: databases.map(\.name), archive: conversationArchive)
        return MessageDispatcher(
            methods: makeMethods(session: session), session: session.protocolSession,
            gracePeriod: configuration.limits.timeout + .seconds(1), logger: logger,
            observer: observer(transport: transport, sessionID: sessionID), onShutdown: onShutdown)
    }

    /// The dispatcher of stateless (2026-07-28) requests that belong to no session: the
    /// Streamable HTTP endpoint's requests without `Mcp-Session-Id`.
    package func statelessDispatcher() -> MessageDispatcher {
        MessageDispatcher(
            methods: makeMethods(session: nil), session: nil,
            gracePeriod: configuration.limits.timeout + .seconds(1), logger: logger, ordersAcrossScopes: false,
            observer: observer(transport: .tcp, sessionID: nil))
    }

    /// What watches a dispatcher's requests: the metrics, then the traces, each when on.
    private func observer(transport: NetworkTransport, sessionID: String?) -> (any RequestObserver)? {
        var observers: [any RequestObserver] = []
        if let metrics { observers.append(metrics) }
        if configuration.tracesRequests {
            observers.append(OperationTracing(
                tracer: InstrumentationSystem.tracer, toolNames: clientToolNames, transport: transport.rawValue, sessionID: sessionID,
                recordsSQLValues: configuration.tracesSQLValues))
        }
        return RequestObserverList.combining(observers)
    }

    /// What carries a session's messages (`network.transport` in the OpenTelemetry conventions).
    package enum NetworkTransport: String, Sendable {
        /// Standard input and output.
        case pipe
        /// HTTP.
        case tcp
    }

    /// Records that a session over `transport` ended after `duration` (with metrics on).
    package func sessionEnded(after duration: Duration, transport: NetworkTransport = .tcp) {
        metrics?.recordSession(lasting: duration, transport: transport.rawValue)
    }

    /// Closes every database once running statements are done (they were interrupted first, on
    /// a prompt shutdown): closing waits for their rollback, at most 1.5 s.
    package func closeDatabases() async {
        _ = try? await firstOutcome(within: .seconds(1.5)) { [databases] in
            for database in databases { await database.executor.close() }
        }
        conversationArchive?.close()
        sharedLedger?.close()
        exports.store.removeAll()
    }

    /// The instructions sent in `initialize`: what the server offers and how it is limited.
    var instructions: String { instructions(for: nil) }

    /// The instructions for a caller: an OAuth caller is told the operations their token's
    /// scopes leave them, not the server's.
    func instructions(for caller: CallerIdentity?) -> String {
        let budget = AnswerBudget(configuration.limits)
        // The descriptions of the databases share what the budget leaves to them.
        let share = max(40, (budget.available / 2 - 1_024) / max(1, databases.count))
        func described(_ database: ServedDatabase) -> String {
            database.description.map { " (\(Echo.clipped(SchemaDescriber.singleLine($0), to: share)))" } ?? ""
        }
        var text: String
        if databases.count == 1, let only = databases.first {
            text = "SQLite database \(only.fileName)\(described(only)). "
        } else {
            text = "SQLite databases: \(databases.map { $0.name + described($0) }.joined(separator: "; ")). "
            text += "Every database tool takes database, the name of one. "
        }
        let names = configuration.toolNaming
        let allowed = caller.map { OperationAllowlist(AccessScope.operations(of: configuration.allowlist, for: $0)) } ?? configuration.allowlist
        if allowed == configuration.allowlist {
            text += "Allowed operations: \(configuration.allowlist). "
        } else {
            text += "Allowed operations: \(allowed.operations.isEmpty ? "none" : allowed.description) (your access token's scopes narrow "
                + "the server's \(configuration.allowlist)). "
        }
        text += "Start with \(names.name("describe_schema")) "
        text += "(on a large schema it gives a catalog a page at a time; search finds tables by words); "
        text += "use \(names.name("query")) for reads (one statement, bind values with params), "
        text += "\(names.name("aggregate")) for counts and sums, \(names.name("export")) for a whole result as CSV or JSON Lines. "
        text += "Every answer fits \(configuration.limits.maxResultBytes) bytes; reads return at most \(configuration.limits.maxRows) rows "
        text += "(truncated: true beyond, truncated_by says which limit, next_cursor continues; long values are clipped). "
        if allowed.allowsWrites, configuration.confirmsDestructiveWrites {
            text += "Destructive writes need the user's confirmation."
        }
        return Echo.clipped(text, to: budget.available / 2)
    }

}
