import ArgumentParser
import Foundation
import Logging
import Metrics
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIAsyncHTTPClient
import SwiftDBAIMCP
import SwiftDBAIMCPHTTP
import SwiftDBAIOAuth
import Tracing

/// `dbai-mcp`: flags → configuration → server. No other logic lives here. Each option is parsed
/// once, into its type, by ArgumentParser (a transform or `ExpressibleByArgument`); `validate()`
/// checks only ranges and combinations.
@main
struct DBAIMCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbai-mcp",
        abstract: "An MCP server for SQLite databases (stdio, or Streamable HTTP with --http): schema, queries and guarded writes.",
        discussion: """
            Logs go to stderr; over stdio, stdout carries only the protocol. The database file must exist: it is never \
            created, and its journal mode and settings are never changed.

            `dbai-mcp audit show|undo FILE --id ID` reads a write back from an audit log and reverts it (see `dbai-mcp audit --help`).
            """,
        version: DBAIServer.version)

    /// ArgumentParser's entry point, with `--help` in sections (``HelpSections``).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "audit" {
            await AuditCommand.main(Array(arguments.dropFirst()))
            return
        }
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // A help request is a clean exit whose message is the help text.
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success, message == helpMessage() {
                // Help asked for at the terminal: no server runs, stdout carries no protocol.
                FileHandle.standardOutput.write(Data((HelpSections.sectioned(message) + "\n").utf8))
                exit()
            }
            exit(withError: error)
        }
    }

    // MARK: - Databases

    @Option(name: .long, help: ArgumentHelp(
        "The SQLite database file; repeat as NAME=PATH to serve several (the tools then take a database argument). A single --db keeps the file's name (without extension) as its name.",
        valueName: "[name=]path"), transform: { DatabaseSource(parsing: $0) })
    var db: [DatabaseSource] = []

    @Option(name: .long, help: ArgumentHelp(
        "A Datasette metadata file (JSON or YAML): descriptions of databases, tables and columns, hidden tables (hidden and unreadable), masked and hidden columns ({masked: true}, {hidden: true}), and canned queries served as tools.",
        valueName: "file"))
    var metadata: String?

    @Option(name: .customLong("load-extension"), help: ArgumentHelp(
        "A SQLite extension (shared library, e.g. vec0.so) loaded on every connection; repeat for several. The SQL function load_extension() stays refused.",
        valueName: "path"))
    var loadExtension: [String] = []

    // MARK: - Policy

    @Option(name: .long, help: ArgumentHelp(
        "Allowed operations: readonly, standard (select, insert, update), unrestricted (+ delete), or a list such as select,insert. (default: readonly)",
        valueName: "allowlist"), transform: { try OperationAllowlist(parsing: $0) })
    var allow: OperationAllowlist = .readOnly

    @Option(name: .long, help: ArgumentHelp(
        "Only these tables and views can be seen, read or written (NAME.table for one database's table).", valueName: "a,b"))
    var tables: String?

    @Option(name: .customLong("write-tables"), help: ArgumentHelp(
        "Only these tables can be written (NAME.table for one database's table).", valueName: "a,b"))
    var writeTables: String?

    @Flag(name: .customLong("no-confirm"), help: "Run destructive writes, and writes a model wrote for `ask`, without asking for confirmation (automation only).")
    var noConfirm = false

    // MARK: - Limits

    @Option(name: .customLong("max-rows"), help: "The most rows a read returns.")
    var maxRows: Int = 500

    @Option(name: .customLong("max-result-bytes"), help: ArgumentHelp(
        "The most bytes of any one answer (a tool result's JSON and text together, a resource, a prompt; at least 4096). A read's rows get about half, its text the rest: beyond, results say truncated_by: bytes with next_cursor; long values are clipped. Schemas that do not fit come as a catalog in pages.",
        valueName: "bytes"))
    var maxResultBytes: Int = ExecutionLimits.defaultMaxResultBytes

    @Option(name: .customLong("max-value-bytes"), help: ArgumentHelp(
        "The largest string or blob a statement may build or read (SQLite's length limit).", valueName: "bytes"))
    var maxValueBytes: Int = ExecutionLimits.defaultMaxValueBytes

    @Option(name: .customLong("sqlite-memory-mb"), help: ArgumentHelp(
        "SQLite's memory limit for the process, in MiB (0 for none).", valueName: "MiB"))
    var sqliteMemoryMB: Int = DBAIServerConfiguration.defaultSQLiteMemoryLimit >> 20

    @Option(name: .customLong("timeout-ms"), help: "How long a statement may run, in milliseconds.")
    var timeoutMilliseconds: Int = 10_000

    // MARK: - Exports

    @Option(name: .customLong("export-dir"), help: ArgumentHelp(
        "A directory where each `export` is also written as a new file (never overwriting one, never following a link); without it, exports are read through resources/read only.",
        valueName: "dir"))
    var exportDirectory: String?

    @Option(name: .customLong("export-ttl-seconds"), help: "How long an export stays readable through resources/read.")
    var exportTTLSeconds: Int = 900

    @Option(name: .customLong("export-max-mb"), help: ArgumentHelp(
        "The most MiB the exports kept take together (and one export at most); the oldest are removed first.", valueName: "MiB"))
    var exportMaxMB: Int = 512

    // MARK: - Audit and state

    @Option(name: .customLong("audit-log"), help: ArgumentHelp(
        "Record every write attempt (insert, update, delete, canned writes, writes `ask` proposed) as a JSON line in this file, written to disk before the write's commit is reported; a write that cannot be recorded is refused.",
        valueName: "file"))
    var auditLog: String?

    @Flag(name: .customLong("audit-reads"), help: "Record reads in the audit log too (every tool call that is not a write).")
    var auditReads = false

    @Flag(name: .customLong("audit-redact-values"), help: "Record each bound value in the audit log as its type and length only.")
    var auditRedactValues = false

    @Option(name: .customLong("audit-log-max-mb"), help: ArgumentHelp(
        "Rotate the audit log to FILE.1, FILE.2… (none deleted) when it would grow past this many MiB.", valueName: "MiB"))
    var auditLogMaxMB: Int?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Keep `ask` conversations in DIR/conversations.sqlite (created when missing; never in a served database), so a conversation_id continues after a restart.",
        valueName: "dir"))
    var stateDirectory: String?

    @Option(name: .customLong("state-secret-file"), help: ArgumentHelp(
        "Replicas: sign confirmation states with a key from FILE (mode 0600, at least 32 bytes) and record used confirmations in --state-dir (needed), so any replica with the same two accepts what another issued, once.",
        valueName: "file"))
    var stateSecretFile: String?

    @Option(name: .customLong("conversation-ttl"), help: ArgumentHelp(
        "How long a conversation nobody continues is kept in --state-dir: seconds, or a number with s, m, h or d (default 7d).",
        valueName: "duration"))
    var conversationTTL: String?

    // MARK: - Model (ask)

    @Option(name: .long, help: ArgumentHelp(
        "The model that answers `ask`: openai:MODEL, anthropic:MODEL, gemini:MODEL, ollama:MODEL or openai-compatible:MODEL. API keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). Without it, `ask` uses the client's model when the client supports sampling.",
        valueName: "provider:model"))
    var llm: String?

    @Option(name: .customLong("llm-base-url"), help: ArgumentHelp(
        "The API base URL of the model (required for openai-compatible, e.g. http://127.0.0.1:8088/v1).", valueName: "url"))
    var llmBaseURL: String?

    @Option(name: .customLong("llm-timeout"), help: ArgumentHelp(
        "How long one model request may take, in seconds (a local model on a CPU may need more than the default for a large schema).",
        valueName: "seconds"))
    var llmTimeoutSeconds: Int = 120

    @Option(name: .customLong("llm-first-timeout"), help: ArgumentHelp(
        "How long the first request to the --llm model with a schema prompt may take, in seconds: a local model on a CPU reads the prompt then, once (at least --llm-timeout).",
        valueName: "seconds"))
    var llmFirstTimeoutSeconds: Int = Int(ChatConfiguration().firstRequestTimeout.components.seconds)

    @Flag(name: .customLong("llm-warm-up"), help: "Have the --llm model read the schema prompt at start-up, so the first `ask` does not wait for it (one short request; for a local model).")
    var llmWarmUp = false

    @Option(name: .customLong("llm-sample-rows"), help: ArgumentHelp(
        "Sample rows per table in the prompt of `ask` (0 for none). They are sent to the model's provider.",
        valueName: "n"))
    var llmSampleRows: Int = ChatConfiguration().sampleRowCount

    @Option(name: .customLong("llm-candidates"), help: ArgumentHelp(
        "The most statements written for a question of `ask`, 1 to 5: above 1, the model writes more at a higher temperature, each runs (reads only), the result most of them return wins, and whether they agree says how sure the answer is. Each is one more model call.",
        valueName: "n"))
    var llmCandidates: Int = ChatConfiguration().candidates

    @Option(name: .customLong("llm-candidate-sampling"), help: ArgumentHelp(
        "When `ask` writes the other candidates: when-unsure (only when the rest of the evidence leaves the answer's confidence open) or always.",
        valueName: "when"))
    var llmCandidateSampling: ChatConfiguration.CandidateSampling = ChatConfiguration().candidateSampling

    @Option(name: .customLong("llm-context"), help: ArgumentHelp(
        "The context window of the model that answers `ask`, in tokens: every prompt fits it, the whole schema whenever it can (default: what the --llm server reports, else \(ChatConfiguration.defaultContextTokens); at least 2048).",
        valueName: "tokens"))
    var llmContext: Int?

    @Option(name: .customLong("llm-rewrites"), help: ArgumentHelp(
        "The kinds of rewrites of the model's SQL for `ask`, comma-separated: repair (mend a statement SQLite rejected), equivalence (change nothing anyone could mean), guess (a reading of the question the statement may miss, told to the model, never applied); none for the model's SQL as written.",
        valueName: "kinds"))
    var llmRewrites: RewriteKindList = RewriteKindList(kinds: ChatConfiguration().rewriteKinds)

    @Option(name: .customLong("llm-examples"), help: ArgumentHelp(
        "How many of the metadata's example questions (the most like each question) go with a question of `ask` when they do not all fit its system prompt, 0 to 8.",
        valueName: "n"))
    var llmExamples: Int = ChatConfiguration().examplesPerQuestion

    @Option(name: .customLong("llm-sql-output"), help: ArgumentHelp(
        "How the model hands over SQL: automatic (text for openai-compatible and ollama, else structured), structured, tool or text.", valueName: "mode"))
    var llmSQLOutput: ChatConfiguration.SQLOutputMode = .automatic

    @Option(name: .customLong("llm-summary"), help: ArgumentHelp(
        "Who writes the answer's summary: model or deterministic (no second model call).", valueName: "mode"))
    var llmSummary: ChatConfiguration.SummaryMode = .model

    // MARK: - HTTP

    @Option(name: .long, help: ArgumentHelp(
        "Serve MCP Streamable HTTP at http://HOST:PORT/mcp instead of stdio (port 0 picks a free one; the log says which). An address beyond this machine needs --auth-token-env.",
        valueName: "host:port"), transform: { try HTTPListenAddress(parsing: $0) })
    var http: HTTPListenAddress?

    @Option(name: .customLong("auth-token-env"), help: ArgumentHelp(
        "With --http: the environment variable holding the secret every request must send as Authorization: Bearer <secret>.",
        valueName: "name"))
    var authTokenEnv: String?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp(
        "With --http: a browser origin (scheme://host[:port]) allowed besides this machine's; repeat for several.",
        valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(name: .customLong("max-sessions"), help: "With --http: the most sessions open at once.")
    var maxSessions: Int = HTTPServeOptions.defaultMaxSessions

    @Option(name: .customLong("session-idle-timeout"), help: ArgumentHelp(
        "With --http: close a session after this many seconds without a request.", valueName: "seconds"))
    var sessionIdleTimeoutSeconds: Int = Int(HTTPServeOptions.defaultSessionIdleTimeout.components.seconds)

    @Option(name: .customLong("max-request-bytes"), help: ArgumentHelp(
        "With --http: the largest request body accepted.", valueName: "bytes"))
    var maxRequestBytes: Int = HTTPServeOptions.defaultMaxRequestBytes

    @Option(name: .customLong("metrics"), help: ArgumentHelp(
        "Serve the server's metrics (request and session durations, rows and bytes returned) in the Prometheus text format at http://HOST:PORT/metrics, on a listener of its own.",
        valueName: "host:port"))
    var metricsAddress: String?

    @Flag(name: .customLong("trace-sql-values"), help: ArgumentHelp(
        "With OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT), put each SQLite statement's text as written and its arguments in its span; by default literals are replaced by ? and arguments left out."))
    var traceSQLValues = false

    @Option(name: .customLong("drain-delay"), help: ArgumentHelp(
        "With --http: on SIGTERM, keep listening and answering this many seconds while /readyz says draining (for balancers that probe it), then close the listener and finish the calls in flight.",
        valueName: "seconds"))
    var drainDelaySeconds: Int = 0

    // MARK: - Sign-in (OAuth)

    @Option(name: .customLong("oauth-issuer"), help: ArgumentHelp(
        "With --http: accept OAuth access tokens of this authorization server (its issuer URL); callers sign in there and their scopes narrow --allow.",
        valueName: "url"))
    var oauthIssuer: String?

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "With --oauth-issuer: the MCP endpoint's URL as clients reach it (https://db.example.com/mcp), which tokens must name as their audience.",
        valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("oauth-introspection-client-env"), help: ArgumentHelp(
        "With --oauth-issuer: the environment variable holding CLIENT_ID:SECRET, to introspect opaque (non-JWT) tokens (RFC 7662).",
        valueName: "name"))
    var oauthIntrospectionClientEnv: String?

    @Option(name: .customLong("oauth-token-type"), help: ArgumentHelp(
        "With --oauth-issuer: accept JWT access tokens of this typ besides at+jwt (jwt, for providers that sign access tokens JWT); repeat for several.",
        valueName: "typ"))
    var oauthTokenType: [String] = []

    // MARK: - Tools and view

    @Option(name: .customLong("tool-prefix"), help: ArgumentHelp(
        "Name the tools NAME_query, NAME_describe_schema, … so that several servers fit in one agent (empty: no prefix).",
        valueName: "name"), transform: { try ToolNaming(prefix: $0) })
    var toolPrefix: ToolNaming?

    @Flag(name: .customLong("no-ui"), help: "Offer no MCP Apps view (ui://dbai/result) even to hosts that show them: results as text and structured content only.")
    var noUI = false

    // MARK: - Hidden

    @Flag(name: .customLong("print-manifest"), help: .hidden)
    var printManifest = false

    /// The HTTP options, the token read from its variable; nil over stdio.
    /// - Parameter masksColumns: the metadata masks a column (`dbai:unmask` is offered).
    private func httpOptions(masksColumns: Bool) throws -> HTTPServeOptions? {
        guard let http else { return nil }
        var token: String?
        if let name = authTokenEnv {
            token = ProcessInfo.processInfo.environment[name]
            guard let token, !token.isEmpty else { throw HTTPServeError.tokenVariableUnset(name) }
        }
        var options = try HTTPServeOptions(
            address: http, authToken: token, allowedOrigins: allowOrigin, maxSessions: maxSessions,
            sessionIdleTimeout: .seconds(sessionIdleTimeoutSeconds), maxRequestBytes: maxRequestBytes,
            oauth: try oauthProtection(masksColumns: masksColumns))
        options.drainDelay = .seconds(drainDelaySeconds)
        return options
    }

    /// The resource server of `--oauth-issuer`; nil without it.
    private func oauthProtection(masksColumns: Bool) throws -> OAuthProtection? {
        guard let oauthIssuer, let publicURL else { return nil }
        var settings = try OAuthResourceSettings(issuer: oauthIssuer, resource: publicURL)
        settings.acceptedTokenTypes.formUnion(oauthTokenType.map(AccessTokenVerifier.mediaType))
        if let name = oauthIntrospectionClientEnv {
            let value = ProcessInfo.processInfo.environment[name] ?? ""
            guard let colon = value.firstIndex(of: ":"), colon != value.startIndex, value.index(after: colon) != value.endIndex else {
                throw ValidationError(
                    "--oauth-introspection-client-env \(name): the environment variable \(name) must hold CLIENT_ID:SECRET, the credentials of a client the authorization server lets introspect tokens.")
            }
            settings.introspectionClient = ClientCredentials(id: String(value[..<colon]), secret: String(value[value.index(after: colon)...]))
        }
        let verifier = AccessTokenVerifier(settings: settings, fetcher: AuthorizationServerFetcher())
        return OAuthProtection(verifier: verifier, scopes: AccessScope.offered(by: allow, masksColumns: masksColumns))
    }

    func run() async throws {
        if printManifest {
            FileHandle.standardOutput.write(Data(try DBAIManifest.json().utf8))
            return
        }
        let telemetry = try bootstrapTelemetry()
        let server: DBAIServer
        let httpOptions: HTTPServeOptions?
        do {
            let metadata = try self.metadata.map { path in try DatasetteMetadata.load(path: path) }
            httpOptions = try self.httpOptions(masksColumns: metadata?.masksColumns ?? false)
            var configuration = try serverConfiguration(metadata: metadata)
            configuration.recordsMetrics = metricsAddress != nil || telemetry?.metricsFactory != nil
            configuration.tracesRequests = telemetry?.tracer != nil
            configuration.tracesSQLValues = traceSQLValues
            server = try DBAIServer(configuration: configuration)
        } catch {
            throw Self.fail(error)
        }
        let exporting = OpenTelemetryExport.start(telemetry?.services ?? [])
        do {
            try await serve(server, httpOptions: httpOptions, otlpMetrics: telemetry?.metricsFactory)
        } catch {
            await exporting?.finish()
            throw error
        }
        await exporting?.finish()
    }

    /// Bootstraps logging, and OpenTelemetry when the environment turns it on
    /// (``OpenTelemetryExport``); returns its backends, nil when it is off.
    ///
    /// - Throws: exit 1 for a configuration swift-otel cannot use (``OpenTelemetryExport/refusal(environment:overStdio:)``).
    private func bootstrapTelemetry() throws -> OpenTelemetryExport.Backends? {
        let environment = ProcessInfo.processInfo.environment
        let export = OpenTelemetryExport(environment: environment)
        guard export.isOn else {
            OpenTelemetryExport.bootstrapLogging(nil)
            return nil
        }
        if let refusal = OpenTelemetryExport.refusal(environment: environment, overStdio: http == nil) {
            throw Self.fail(refusal)
        }
        if let propagators = OpenTelemetryExport.usablePropagators(environment) {
            // swift-otel reads the variable itself (and stops the process on `baggage`); nothing
            // else runs yet.
            setenv("OTEL_PROPAGATORS", propagators, 1)
        }
        let backends: OpenTelemetryExport.Backends
        do {
            backends = try export.makeBackends(durationBuckets: PrometheusEndpoint.durationBuckets)
        } catch {
            throw Self.fail("OpenTelemetry: \(error)")
        }
        OpenTelemetryExport.bootstrapLogging(backends)
        if OpenTelemetryExport.usablePropagators(environment) != nil {
            Logger(label: "dbai-mcp.otel").warning(
                "OTEL_PROPAGATORS: baggage is not propagated (swift-otel has no baggage propagator); trace context is.")
        }
        if let tracer = backends.tracer { InstrumentationSystem.bootstrap(tracer) }
        return backends
    }

    /// Serves until the server stops (end of input, a signal, a drain).
    private func serve(_ server: DBAIServer, httpOptions: HTTPServeOptions?, otlpMetrics: (any MetricsFactory)?) async throws {
        let signals = [SIGTERM, SIGINT, SIGHUP]
        let metricsListener = try await startMetrics(alongside: otlpMetrics)
        defer { metricsListener?.cancel() }
        let warmUp = llmWarmUp ? Task { await server.warmUpLanguageModel() } : nil
        defer { warmUp?.cancel() }
        // The authorization server's metadata and keys, fetched ahead of the first token so that
        // a wrong --oauth-issuer shows in the log at once.
        let discovery = httpOptions?.oauth.map { oauth in
            Task {
                do {
                    try await oauth.verifier.prepare()
                } catch {
                    Logger(label: "dbai-mcp.oauth").warning("OAuth: \(error) Tokens are refused until it can be reached.")
                }
            }
        }
        defer { discovery?.cancel() }
        guard let httpOptions else {
            try await server.run(transport: FastStdioTransport(), shutdownSignals: signals)
            return
        }
        do {
            try await MCPHTTPServer(server: server, options: httpOptions).run(shutdownSignals: signals)
        } catch let error as HTTPServeError {
            throw Self.fail(error)
        }
    }

    /// `--metrics`: swift-metrics reports to Prometheus (and to the OTLP exporter, when metrics
    /// are exported), served on a listener of its own (a task, ended when the server stops), bound
    /// before the server serves anything; nil without the flag (swift-metrics then reports to the
    /// OTLP exporter alone, if any).
    ///
    /// - Throws: exit 1 when the address is malformed or cannot be bound.
    private func startMetrics(alongside otlpMetrics: (any MetricsFactory)?) async throws -> Task<Void, Never>? {
        guard let metricsAddress else {
            if let otlpMetrics { MetricsSystem.bootstrap(otlpMetrics) }
            return nil
        }
        let address: HTTPListenAddress
        do {
            address = try HTTPListenAddress(parsing: metricsAddress)
        } catch {
            throw Self.fail("--metrics \(metricsAddress): give HOST:PORT, for example 127.0.0.1:9464.")
        }
        let endpoint = PrometheusEndpoint.bootstrap(alongside: otlpMetrics)
        let (started, starting) = AsyncStream<String?>.makeStream()
        let task = Task {
            do {
                try await endpoint.run(address: address) { _ in starting.yield(nil) }
            } catch HTTPServeError.cannotListen(_, let reason) {
                starting.yield(reason)
            } catch {
                if !Task.isCancelled { Logger(label: "dbai-mcp").error("--metrics \(metricsAddress): \(error)") }
            }
            starting.finish()
        }
        for await failure in started {
            guard let failure else { break }
            task.cancel()
            throw Self.fail("--metrics \(metricsAddress): cannot listen (\(failure)).")
        }
        return task
    }

    /// The server's configuration from the flags and the metadata file (read first); the model
    /// is made here.
    private func serverConfiguration(metadata: DatasetteMetadata?) throws -> DBAIServerConfiguration {
        var languageModel: (any LanguageModel)?
        var preferredSQLOutput = ChatConfiguration.SQLOutputMode.automatic
        if let llm {
            let specifier = try LanguageModelSpecifier(parsing: llm, baseURL: llmBaseURL)
            preferredSQLOutput = specifier.preferredSQLOutput
            languageModel = try specifier.makeModel(
                environment: ProcessInfo.processInfo.environment, transport: .asyncHTTPClient,
                timeout: .seconds(llmTimeoutSeconds))
        }
        var chat = ChatConfiguration()
        chat.sqlOutput = llmSQLOutput == .automatic ? preferredSQLOutput : llmSQLOutput
        chat.summary = llmSummary
        chat.sampleRowCount = llmSampleRows
        chat.candidates = llmCandidates
        chat.candidateSampling = llmCandidateSampling
        chat.contextTokens = llmContext
        chat.rewriteKinds = llmRewrites.kinds
        chat.examplesPerQuestion = llmExamples
        chat.firstRequestTimeout = .seconds(max(llmFirstTimeoutSeconds, llmTimeoutSeconds))
        var configuration = DBAIServerConfiguration(
            databases: db,
            allowlist: allow,
            visibleTables: Self.list(tables),
            writableTables: Self.list(writeTables),
            limits: ExecutionLimits(
                maxRows: maxRows, maxResultBytes: maxResultBytes, maxValueBytes: maxValueBytes,
                timeout: .milliseconds(timeoutMilliseconds)),
            confirmsDestructiveWrites: !noConfirm,
            languageModel: languageModel,
            chat: chat,
            samplingTimeout: .seconds(llmTimeoutSeconds),
            sqliteMemoryLimit: sqliteMemoryMB == 0 ? nil : sqliteMemoryMB << 20,
            toolNaming: toolPrefix ?? .plain,
            metadata: metadata,
            extensions: loadExtension.map { SQLiteExtension(path: $0) })
        configuration.exports = ExportSettings(
            directory: exportDirectory, timeToLive: .seconds(exportTTLSeconds), maxBytes: exportMaxMB << 20)
        configuration.offersViews = !noUI
        configuration.conversationArchive = stateDirectory.map { directory in
            ConversationArchiveSettings(
                directory: directory, timeToLive: .seconds(conversationTTL.flatMap(Self.seconds) ?? 7 * 24 * 3600))
        }
        configuration.stateSecretFile = stateSecretFile
        configuration.audit = auditLog.map { path in
            AuditSettings(
                path: path, recordsReads: auditReads, redactsValues: auditRedactValues, maxBytes: auditLogMaxMB.map { $0 << 20 })
        }
        return configuration
    }

    /// The one way a start that cannot go on ends: the error's description on stderr, exit 1.
    private static func fail(_ error: any Error) -> ExitCode {
        fail(String(describing: error))
    }

    private static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("dbai-mcp: \(message)\n".utf8))
        return ExitCode(1)
    }

    /// Seconds in a duration: `3600`, `45s`, `30m`, `12h`, `7d`; nil for anything else or 0.
    static func seconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(trimmed)
        var unit = 1
        if let last = trimmed.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number > 0, number <= Int.max / unit / 1_000 else { return nil }
        return number * unit
    }

    static func list(_ text: String?) -> [String]? {
        text.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }
}

extension ChatConfiguration.SQLOutputMode: ExpressibleByArgument {}
extension ChatConfiguration.SummaryMode: ExpressibleByArgument {}
extension ChatConfiguration.CandidateSampling: ExpressibleByArgument {}
