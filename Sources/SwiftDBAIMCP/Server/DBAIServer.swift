import Foundation
import Logging
import MCP
import SwiftDBAI
import SwiftDBAIChat

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

    /// Opens the databases and checks the configuration and the metadata against their schemas.
    ///
    /// - Throws: ``DBAIServerConfigurationError`` for a missing or non-SQLite file, an extension
    ///   that does not load, an unknown table in `--tables`/`--write-tables`, writable tables
    ///   without writes, a bad or duplicate database name, or metadata that does not fit.
    public init(configuration: DBAIServerConfiguration, logger: Logger = Logger(label: "dbai-mcp")) throws(DBAIServerConfigurationError) {
        self.configuration = configuration
        self.logger = logger
        if let limit = configuration.sqliteMemoryLimit { SQLiteMemoryLimit.apply(bytes: limit) }
        databases = try ServedDatabase.openAll(configuration)
        exports = ExportDestination(
            store: ExportStore(settings: configuration.exports),
            directory: try configuration.exports.directory.map { (path) throws(DBAIServerConfigurationError) in try ExportDirectory(path) })
        registry = ToolRegistry(
            allowlist: configuration.allowlist, naming: configuration.toolNaming,
            cannedQueries: databases.flatMap(\.cannedQueries), databaseNames: databases.map(\.name))
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
    /// theirs (with `--no-confirm`, nothing is asked). Without elicitation there is no delegate:
    /// such a write is refused with the SQL to run by hand.
    func chatExecutor(_ executor: SQLExecutor, server: Server, session: ClientSession) -> SQLExecutor {
        guard configuration.confirmsDestructiveWrites else { return executor.confirming([]) }
        guard session.supportsElicitation else { return executor }
        return executor.withDelegate(ElicitationConfirmer(
            elicit: Self.elicitation(through: server),
            preamble: "A language model wrote this change to answer a question."))
    }

    /// Serves MCP over the transport until the client disconnects (end of input), a signal in
    /// `shutdownSignals` arrives, or the client stops reading the output.
    ///
    /// On a signal or a closed output, every running statement is interrupted (writes roll back)
    /// and the connections are closed before it returns, so no hot journal is left behind.
    ///
    /// - Throws: an error when the transport cannot start.
    public func run(transport: any Transport, shutdownSignals: [Int32] = []) async throws {
        let session = try await startSession(on: transport) { [databases] _ in
            for database in databases { database.executor.interruptAll() }
        }
        let signals = ShutdownSignals(shutdownSignals) { signal in
            Task { await session.shutDown(reason: "signal \(signal)") }
        }
        logger.info("dbai-mcp serving \(databases.map(\.path).joined(separator: ", ")) (\(configuration.allowlist))")
        await session.waitUntilCompleted()
        signals.cancel()
        await session.stop()
        await closeDatabases()
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

    /// Starts serving one client's session over a transport: its own MCP server, capabilities,
    /// log level, conversations and confirmation tokens, over the databases all sessions share.
    ///
    /// - Parameter onShutdown: called once when the session shuts down early (a signal, an
    ///   output the client closed), after its calls were cancelled.
    /// - Throws: an error when the transport cannot start.
    package func startSession(
        on transport: any Transport, onShutdown: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> ServingSession {
        let client = ClientSession(databases: databases.map(\.name))
        let server = makeServer()
        await register(on: server, session: client)
        let offersViews = configuration.offersViews
        let routing = RoutingTransport(
            transport, gracePeriod: configuration.limits.timeout + .seconds(1), logger: logger,
            turnKind: { [registry] name in registry.turnKind(of: name) },
            onShutdown: onShutdown,
            onInitialize: { params in
                // MCP Apps: declared back, and the view offered, only to a client that declared it.
                guard offersViews, AppsExtension.isDeclared(inInitialize: params) else { return [:] }
                return [AppsExtension.identifier: AppsExtension.serverSettings]
            },
            onDeclared: { extensions in
                // Only once the server's initialize result says so (a second initialize fails).
                if extensions[AppsExtension.identifier] != nil { client.declaredApps() }
            }
        ) { [weak server, self] parameters in
            guard let server else { throw MCPError.internalError("The server stopped.") }
            return try await self.callTool(parameters, server: server, session: client)
        }
        try await server.start(transport: routing) { _, capabilities in
            client.initialized(with: capabilities)
        }
        return ServingSession(server: server, routing: routing)
    }

    /// Closes every database once running statements are done (they were interrupted first, on
    /// a prompt shutdown): closing waits for their rollback, at most 1.5 s.
    package func closeDatabases() async {
        _ = try? await firstOutcome(within: .seconds(1.5)) { [databases] in
            for database in databases { await database.executor.close() }
        }
        exports.store.removeAll()
    }

    /// A new MCP server, handlers not yet registered.
    func makeServer() -> Server {
        Server(
            name: Self.name, version: Self.version, title: "SwiftDBAI SQLite server",
            instructions: instructions,
            capabilities: Server.Capabilities(
                completions: .init(),
                logging: .init(),
                prompts: .init(listChanged: false),
                resources: .init(subscribe: false, listChanged: false),
                tools: .init(listChanged: false)))
    }

    /// The instructions sent in `initialize`: what the server offers and how it is limited.
    var instructions: String {
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
        text += "Allowed operations: \(configuration.allowlist). Start with \(names.name("describe_schema")) "
        text += "(on a large schema it gives a catalog a page at a time; search finds tables by words); "
        text += "use \(names.name("query")) for reads (one statement, bind values with params), "
        text += "\(names.name("aggregate")) for counts and sums, \(names.name("export")) for a whole result as CSV or JSON Lines. "
        text += "Every answer fits \(configuration.limits.maxResultBytes) bytes; reads return at most \(configuration.limits.maxRows) rows "
        text += "(truncated: true beyond, truncated_by says which limit, next_cursor continues; long values are clipped). "
        if configuration.allowlist.allowsWrites, configuration.confirmsDestructiveWrites {
            text += "Destructive writes need the user's confirmation."
        }
        return Echo.clipped(text, to: budget.available / 2)
    }

    /// The most items of a `tools/list`, `resources/list`, `resources/templates/list` or
    /// `prompts/list` page; the next page is asked for with `nextCursor`.
    static let listPageSize = 100

    private func register(on server: Server, session: ClientSession) async {
        let size = Self.listPageSize
        await server.withMethodHandler(ListTools.self) { [self] parameters in
            let page = try ListPage(registry.listTools(availability(session)), cursor: parameters.cursor, size: size, kind: "tools")
            return ListTools.Result(tools: page.items, nextCursor: page.nextCursor)
        }
        let resources = SchemaResources(databases: databases, budget: AnswerBudget(configuration.limits))
        await server.withMethodHandler(ListResources.self) { [self] parameters in
            let views = showsApps(session) ? [ResultView.resource] : []
            let page = try ListPage(views + (try await resources.list()), cursor: parameters.cursor, size: size, kind: "resources")
            return ListResources.Result(resources: page.items, nextCursor: page.nextCursor)
        }
        await server.withMethodHandler(ListResourceTemplates.self) { parameters in
            let page = try ListPage(
                resources.templates + [ExportResources.template], cursor: parameters.cursor, size: size, kind: "resources/templates")
            return ListResourceTemplates.Result(templates: page.items, nextCursor: page.nextCursor)
        }
        let exportResources = ExportResources(store: exports.store)
        await server.withMethodHandler(ReadResource.self) { [self] parameters in
            if parameters.uri == ResultView.uri, showsApps(session) { return ReadResource.Result(contents: ResultView.read()) }
            if exportResources.handles(parameters.uri) { return ReadResource.Result(contents: try exportResources.read(parameters.uri)) }
            return ReadResource.Result(contents: try await resources.read(parameters.uri))
        }
        let prompts = PromptCatalog(databases: databases, naming: configuration.toolNaming, budget: AnswerBudget(configuration.limits))
        await server.withMethodHandler(ListPrompts.self) { parameters in
            let page = try ListPage(prompts.prompts, cursor: parameters.cursor, size: size, kind: "prompts")
            return ListPrompts.Result(prompts: page.items, nextCursor: page.nextCursor)
        }
        await server.withMethodHandler(GetPrompt.self) { parameters in
            try await prompts.get(parameters.name, arguments: parameters.arguments)
        }
        let completions = SchemaCompletions(databases: databases)
        await server.withMethodHandler(Complete.self) { parameters in
            try await completions.complete(parameters)
        }
        await server.withMethodHandler(SetLoggingLevel.self) { [session] parameters in
            session.setLogLevel(parameters.level)
            return Empty()
        }
    }

    /// What this session offers: `ask` needs `--llm` or a client that samples.
    private func availability(_ session: ClientSession) -> ToolAvailability {
        ToolAvailability(
            hasLanguageModel: configuration.languageModel != nil || session.supportsSampling, showsApps: showsApps(session))
    }

    /// Whether the session gets the result view: the client declared MCP Apps and `--no-ui` is not set.
    private func showsApps(_ session: ClientSession) -> Bool {
        configuration.offersViews && session.showsApps
    }

    /// The model of `ask`: `--llm`, else the client's through sampling, else none.
    private func languageModel(for server: Server, session: ClientSession) -> (any LanguageModel)? {
        if let model = configuration.languageModel { return model }
        guard session.supportsSampling else { return nil }
        return SamplingLanguageModel(server: server, timeout: configuration.samplingTimeout)
    }

    private func callTool(_ parameters: CallTool.Parameters, server: Server, session: ClientSession) async throws -> CallTool.Result {
        let model = languageModel(for: server, session: session)
        let chat = model.map { model in
            ChatContext(conversations: session.conversations) { [self] database in
                ChatEngine(
                    executor: chatExecutor(database.executor, server: server, session: session), model: model,
                    configuration: chatConfiguration(for: database),
                    readPrompts: configuration.languageModel == nil ? session.readPrompts : readPrompts)
            }
        }
        let progress = parameters._meta?.progressToken.map { token in
            ProgressReporter { progress, message in
                try? await server.notify(ProgressNotification.message(
                    .init(progressToken: token, progress: progress, message: message)))
            }
        }
        let confirmsWrites = configuration.confirmsDestructiveWrites
        let elicit = session.supportsElicitation ? Self.elicitation(through: server) : nil
        let naming = configuration.toolNaming
        let exports = exports
        let showsApps = showsApps(session)
        let catalog = DatabaseCatalog(databases: databases, chat: chat) { database in
            ToolCallContext(
                database: database,
                writes: WriteConfirmationFlow(
                    executor: database.executor, tokens: session.tokens(for: database.name), confirmsDestructiveWrites: confirmsWrites,
                    elicit: elicit),
                progress: progress,
                chat: chat,
                naming: naming,
                exports: exports,
                showsApps: showsApps)
        }
        let result = try await registry.call(
            parameters.name, arguments: parameters.arguments,
            availability: ToolAvailability(hasLanguageModel: model != nil, showsApps: showsApps),
            catalog: catalog)
        if result.isError == true {
            let message = result.content.first.flatMap { content -> String? in
                if case .text(let text, _, _) = content { return text }
                return nil
            } ?? ""
            logger.notice("\(parameters.name) refused: \(message)")
            await log(.warning, "\(parameters.name): \(message)", to: server, session: session)
        } else {
            await log(.debug, "\(parameters.name) succeeded", to: server, session: session)
        }
        return result
    }

    /// Sends a `notifications/message` when the client's log level lets it through.
    private func log(_ level: LogLevel, _ message: String, to server: Server, session: ClientSession) async {
        guard session.wants(level) else { return }
        try? await server.log(level: level, logger: Self.name, data: .string(message))
    }

    /// How long the server waits for the user to answer a confirmation request.
    static let confirmationTimeout: Duration = .seconds(300)

    /// Asks the user through `elicitation/create` (form mode, one boolean). Gives up (declined)
    /// after ``confirmationTimeout``, and at once when the tool call is cancelled.
    /// The request steps out of its turn meanwhile (``RequestTurn/outsideCurrent(_:)``): the calls
    /// behind it go on while the user decides.
    static func elicitation(through server: Server) -> ElicitationConfirmer.Elicit {
        { [weak server] message in
            guard let server else { throw MCPError.internalError("The server stopped.") }
            let result: CreateElicitation.Result
            do {
                result = try await RequestTurn.outsideCurrent {
                    try await firstOutcome(within: confirmationTimeout) {
                        try await server.requestElicitation(
                            message: message,
                            requestedSchema: Elicitation.RequestSchema(
                                title: "Confirm a change to the database",
                                properties: ["confirm": [
                                    "type": "boolean", "title": "Run it",
                                    "description": "True to run the statement; false to leave the database unchanged.",
                                ]],
                                required: ["confirm"]))
                    }
                }
            } catch is TimeLimitExceeded {
                return .declined
            }
            let confirmed = result.action == .accept && result.content?["confirm"]?.boolValue == true
            return confirmed ? .confirmed : .declined
        }
    }
}
