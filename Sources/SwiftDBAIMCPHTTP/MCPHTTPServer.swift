import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import SwiftDBAIPrimitives
import SwiftDBAIMCP
import SwiftDBAIMCPKernel

/// Serves a ``DBAIServer`` over MCP Streamable HTTP on Hummingbird 2: HTTP/1.1 with keep-alive,
/// responses as JSON or server-sent events (``StreamableHTTPEndpoint`` decides what).
///
/// ```swift
/// let options = try HTTPServeOptions(address: HTTPListenAddress(parsing: "127.0.0.1:8080"))
/// try await MCPHTTPServer(server: server, options: options).run(shutdownSignals: [SIGTERM, SIGINT])
/// ```
public struct MCPHTTPServer: Sendable {
    private let server: DBAIServer
    private let endpoint: StreamableHTTPEndpoint
    private let logger: Logger

    /// Creates the HTTP server of a ``DBAIServer``.
    public init(server: DBAIServer, options: HTTPServeOptions, logger: Logger = Logger(label: "dbai-mcp")) {
        self.server = server
        self.logger = logger
        endpoint = StreamableHTTPEndpoint(server: server, options: options, logger: logger)
    }

    /// Listens until a signal in `shutdownSignals`: then no new session or request is taken
    /// (503), every request in flight is answered — over the connections already open, so that
    /// a client can still answer an elicitation — within the statement timeout plus 5 s, the
    /// sessions end, the connections close (those still open 5 s later are cut), and the
    /// databases close.
    ///
    /// - Parameter onListening: called with the address bound (the port chosen for port 0).
    /// - Throws: ``HTTPServeError/cannotListen(_:reason:)`` when the address cannot be bound.
    public func run(shutdownSignals: [Int32] = [], onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let options = endpoint.options
        let listening = Mutex(false)
        let application = Application(
            responder: EndpointResponder(endpoint: endpoint, maxRequestBytes: options.maxRequestBytes),
            configuration: ApplicationConfiguration(
                address: .hostname(options.address.host, port: options.address.port), serverName: nil, backlog: 256,
                reuseAddress: true),
            onServerRunning: { [logger, server] channel in
                listening.withLock { $0 = true }
                let bound = channel.localAddress.map(Self.urlAuthority) ?? options.address.description
                logger.notice("dbai-mcp listening on http://\(bound)\(StreamableHTTPEndpoint.path) (\(server.configuration.allowlist))")
                onListening(bound)
            },
            logger: Self.quiet(logger))
        var configuration = ServiceGroupConfiguration(services: [application], logger: Self.quiet(logger))
        // Connections still open once every session ended (a client that stops reading, a body
        // trickling in) are cut, so that the process always exits.
        configuration.maximumGracefulShutdownDuration = .seconds(5)
        let services = ServiceGroup(configuration: configuration)
        let shutdown = Mutex<Task<Void, Never>?>(nil)
        let signals = ShutdownSignals(shutdownSignals) { [logger, endpoint, server] signal in
            shutdown.withLock { task in
                guard task == nil else { return }
                logger.notice("Shutting down (signal \(signal)): finishing the calls in flight")
                task = Task {
                    // First the answers (the endpoint takes nothing new meanwhile), then the
                    // sessions, then the listener and the connections.
                    let grace = server.configuration.limits.timeout + .seconds(5)
                    if (try? await firstOutcome(within: grace, { await endpoint.drain() })) == nil {
                        logger.warning("Calls still running after \(grace): cancelling them")
                    }
                    await endpoint.closeAll()
                    await services.triggerGracefulShutdown()
                }
            }
        }
        defer { signals.cancel() }
        let sweeper = Task { await closeIdleSessions(every: min(options.sessionIdleTimeout / 4, .seconds(30))) }
        defer { sweeper.cancel() }
        var failure: (any Error)?
        do {
            try await services.run()
        } catch {
            failure = error
        }
        await shutdown.withLock { $0 }?.value
        await endpoint.closeAll()
        await server.closeDatabases()
        guard let failure else { return }
        guard listening.withLock({ $0 }) else {
            throw HTTPServeError.cannotListen(options.address.description, reason: "\(failure)")
        }
        logger.error("The HTTP server stopped: \(failure)")
    }

    private func closeIdleSessions(every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            await endpoint.closeIdleSessions()
        }
    }

    /// Hummingbird's own logs only from warnings up: ours say what happens.
    private static func quiet(_ logger: Logger) -> Logger {
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        return quiet
    }

    private static func urlAuthority(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "localhost"
        let port = address.port ?? 0
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
