import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals
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

    /// Listens until a signal in `shutdownSignals`, then drains in the order a load balancer
    /// never sees fail (``EndpointDrainService``): `/readyz` turns 503, the listener closes (new
    /// connections are refused), the requests already received are answered within the
    /// statement timeout plus 5 s on connections that then close, the 2025-11-25 sessions end
    /// after their calls, and the databases close. A second signal ends the process at once. A
    /// signal other than TERM, INT, HUP, QUIT, USR1 and USR2 is not trapped, with a warning.
    ///
    /// One ServiceLifecycle group runs the listener (the Hummingbird application on
    /// ``MCPRouter``, in a group of its own: ``HTTPListenerService``), the drain and the
    /// idle-session sweeper (``IdleSessionSweeper``).
    ///
    /// - Parameter onListening: called with the address bound (the port chosen for port 0).
    /// - Throws: ``HTTPServeError/cannotListen(_:reason:)`` when the address cannot be bound.
    public func run(shutdownSignals: [Int32] = [], onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let options = endpoint.options
        let listening = Mutex(false)
        let boundPort = Mutex<Int?>(nil)
        let application = Application(
            router: MCPRouter.make(endpoint: endpoint),
            configuration: ApplicationConfiguration(
                address: .hostname(options.address.host, port: options.address.port), serverName: nil, backlog: 256,
                reuseAddress: true),
            onServerRunning: { [logger, server] channel in
                listening.withLock { $0 = true }
                boundPort.withLock { $0 = channel.localAddress?.port }
                let bound = channel.localAddress.map(Self.urlAuthority) ?? options.address.description
                logger.notice("dbai-mcp listening on http://\(bound)\(StreamableHTTPEndpoint.path) (\(server.configuration.allowlist))")
                onListening(bound)
            },
            logger: Self.quiet(logger))
        let grace = server.configuration.limits.timeout + .seconds(5)
        let signals = shutdownSignals.compactMap { number in
            let known = Self.unixSignal(number)
            if known == nil { logger.warning("Signal \(number) cannot be trapped here: it does not stop the server gracefully.") }
            return known
        }
        // The listener in a group of its own, which the drain stops first; connections still
        // open once the calls had their time (a client that stops reading, a body trickling in)
        // are cut 5 s later, so that the process always exits.
        var listenerGroup = ServiceGroupConfiguration(
            services: [.init(service: application, serviceName: "http")], logger: Self.quiet(logger))
        listenerGroup.maximumGracefulShutdownDuration = grace + .seconds(5)
        let listener = HTTPListenerService(group: ServiceGroup(configuration: listenerGroup), logger: logger) {
            boundPort.withLock { $0 }
        }
        // Named, so that the group does not describe each service by reflection at start.
        let configuration = ServiceGroupConfiguration(
            services: [
                // Stopped in reverse order: the sweeper, then the drain (which stops the listener
                // first), then the listener (already stopped).
                .init(service: listener, serviceName: "listener"),
                .init(
                    service: EndpointDrainService(
                        endpoint: endpoint, listener: listener, grace: grace, signals: signals.map(\.rawValue), logger: logger),
                    serviceName: "drain"),
                .init(service: IdleSessionSweeper(endpoint: endpoint), serviceName: "idle-sessions"),
            ],
            gracefulShutdownSignals: signals, logger: Self.quiet(logger))
        var failure: (any Error)?
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            failure = error
        }
        await endpoint.closeAll()
        await server.closeDatabases()
        guard let failure else { return }
        guard listening.withLock({ $0 }) else {
            throw HTTPServeError.cannotListen(options.address.description, reason: "\(failure)")
        }
        logger.error("The HTTP server stopped: \(failure)")
    }

    /// ServiceLifecycle's name of a signal number (those a server is stopped with).
    private static func unixSignal(_ number: Int32) -> UnixSignal? {
        [UnixSignal.sigterm, .sigint, .sighup, .sigquit, .sigusr1, .sigusr2].first { $0.rawValue == number }
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
