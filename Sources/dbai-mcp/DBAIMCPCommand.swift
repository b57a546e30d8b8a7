import ArgumentParser
import Foundation
import Logging
import SwiftDBAIMCP
import SwiftDBAIMCPHTTP

/// `dbai-mcp`: flags → configuration → server. No other logic lives here. The flags come in
/// groups (`Options/`), each parsed once into its types by ArgumentParser and checked by its own
/// `validate()` (ranges and combinations within the group), in the order the groups are declared
/// (the databases first); a configuration that cannot be built or served ends in one error path,
/// ``fail(_:)``.
@main
struct DBAIMCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbai-mcp",
        abstract: "An MCP server for SQLite databases (stdio, or Streamable HTTP with --http): schema, queries and guarded writes.",
        discussion: """
            Logs go to stderr; over stdio, stdout carries only the protocol. The database file must exist: it is never \
            created, and its journal mode and settings are never changed.
            """,
        version: DBAIServer.version)

    @OptionGroup(title: "Databases") var databases: DatabaseOptions
    @OptionGroup(title: "Policy") var policy: PolicyOptions
    @OptionGroup(title: "Limits") var limits: LimitOptions
    @OptionGroup(title: "Exports") var exports: ExportOptions
    @OptionGroup(title: "Audit and state") var auditAndState: AuditAndStateOptions
    @OptionGroup(title: "Tools and view") var view: ViewOptions
    @OptionGroup(title: "Language model for ask") var model: ModelOptions
    @OptionGroup(title: "HTTP") var http: HTTPOptions

    func run() async throws {
        if databases.printManifest {
            FileHandle.standardOutput.write(Data(try DBAIManifest.json().utf8))
            return
        }
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let environment = ProcessInfo.processInfo.environment
        let server: DBAIServer
        let httpOptions: HTTPServeOptions?
        do {
            httpOptions = try http.serveOptions(environment: environment)
            server = try DBAIServer(configuration: try serverConfiguration(environment: environment))
        } catch {
            throw Self.fail(error)
        }
        let signals = [SIGTERM, SIGINT, SIGHUP]
        let warmUp = model.llmWarmUp ? Task { await server.warmUpLanguageModel() } : nil
        defer { warmUp?.cancel() }
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

    /// The server's configuration, from every group; the model is made and the metadata file
    /// read here.
    private func serverConfiguration(environment: [String: String]) throws -> DBAIServerConfiguration {
        let languageModel = try model.languageModel(environment: environment)
        var configuration = DBAIServerConfiguration(
            databases: databases.db,
            allowlist: policy.allow,
            visibleTables: policy.visibleTables,
            writableTables: policy.writableTables,
            limits: limits.executionLimits,
            confirmsDestructiveWrites: !policy.noConfirm,
            languageModel: languageModel?.model,
            chat: model.chatConfiguration(preferredSQLOutput: languageModel?.preferredSQLOutput ?? .automatic),
            samplingTimeout: model.requestTimeout,
            sqliteMemoryLimit: limits.sqliteMemoryLimit,
            toolNaming: view.toolNaming,
            metadata: try databases.loadMetadata(),
            extensions: databases.extensions)
        configuration.exports = exports.settings
        configuration.offersViews = view.offersViews
        configuration.conversationArchive = auditAndState.conversationArchive
        configuration.audit = auditAndState.audit
        return configuration
    }

    /// The one way a start that cannot go on ends: the error's description on stderr, exit 1.
    private static func fail(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data("dbai-mcp: \(String(describing: error))\n".utf8))
        return ExitCode(1)
    }
}
