import MCP

/// One client's session being served: its MCP server and the routing transport under it
/// (``DBAIServer/startSession(on:onShutdown:)``).
package struct ServingSession: Sendable {
    let server: Server
    let routing: RoutingTransport

    /// Returns when the session ended: its input ended and every request received was answered
    /// (or nothing was answered for the grace period), or it was shut down.
    package func waitUntilCompleted() async {
        await server.waitUntilCompleted()
    }

    /// Cancels every running call (their statements roll back) and ends the session now.
    package func shutDown(reason: String) async {
        await routing.shutDown(reason: reason)
    }

    /// Stops the MCP server once the session ended.
    package func stop() async {
        await server.stop()
    }
}
