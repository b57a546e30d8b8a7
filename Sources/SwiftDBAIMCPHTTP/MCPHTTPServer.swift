import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import SwiftDBAI
import SwiftDBAIMCP

/// Serves a ``DBAIServer`` over MCP Streamable HTTP on SwiftNIO: HTTP/1.1 with keep-alive,
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

    /// Listens until a signal in `shutdownSignals`: then no new session or connection is taken,
    /// every session answers the requests it received (each within the statement timeout plus a
    /// second), the sessions end, and the databases close.
    ///
    /// - Parameter onListening: called with the address bound (the port chosen for port 0).
    /// - Throws: ``HTTPServeError/cannotListen(_:reason:)`` when the address cannot be bound.
    public func run(shutdownSignals: [Int32] = [], onListening: @Sendable (String) -> Void = { _ in }) async throws {
        let options = endpoint.options
        let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .bind(host: options.address.host, port: options.address.port) { child in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                    }
                }
        } catch {
            throw HTTPServeError.cannotListen(options.address.description, reason: "\(error)")
        }
        let bound = channel.channel.localAddress.map(Self.urlAuthority) ?? options.address.description
        let listener = channel.channel
        let signals = ShutdownSignals(shutdownSignals) { [logger] signal in
            logger.notice("Shutting down (signal \(signal)): finishing the calls in flight")
            listener.close(promise: nil)
        }
        defer { signals.cancel() }
        logger.notice("dbai-mcp listening on http://\(bound)\(StreamableHTTPEndpoint.path) (\(server.configuration.allowlist))")
        onListening(bound)
        let connections = ConnectionServer(endpoint: endpoint, logger: logger, maxRequestBytes: options.maxRequestBytes)
        await withDiscardingTaskGroup { group in
            group.addTask { await closeIdleSessions(every: min(options.sessionIdleTimeout / 4, .seconds(30))) }
            do {
                try await channel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await connections.serve(connection) }
                    }
                }
            } catch {
                logger.error("The HTTP listener stopped: \(error)")
            }
            // No new connection: let the sessions answer what they received, then end them.
            let grace = server.configuration.limits.timeout + .seconds(5)
            if (try? await firstOutcome(within: grace, { await endpoint.drain() })) == nil {
                logger.warning("Calls still running after \(grace): cancelling them")
            }
            await endpoint.closeAll()
            group.cancelAll()
        }
        await server.closeDatabases()
    }

    private func closeIdleSessions(every interval: Duration) async {
        while (try? await Task.sleep(for: interval)) != nil {
            await endpoint.closeIdleSessions()
        }
    }

    private static func urlAuthority(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "localhost"
        let port = address.port ?? 0
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
