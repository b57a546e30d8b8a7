import MCP
import SwiftDBAIPrimitives

/// What the protocol keeps of one handshake-era session (2025-11-25 and older): the capabilities
/// the client declared in `initialize`, its `clientInfo`, the revision negotiated and the log
/// level it asked for. Over stdio there is one; over HTTP each `Mcp-Session-Id` has its own.
/// Stateless (2026-07-28) requests carry these facts themselves and have none.
///
/// A lock rather than an actor: every request reads the capabilities and the log level, two
/// small values; a lock spares an actor hop on each read.
package final class ProtocolSession: Sendable {
    private struct State {
        var capabilities: [String: Value]?
        var clientInfo: Value?
        var protocolVersion: String?
        var logLevel: LogLevel = .warning
    }

    private let state = Mutex(State())

    package init() {}

    /// Records what `initialize` declared. False, changing nothing, when the session was
    /// initialized already.
    package func initialize(capabilities: [String: Value], clientInfo: Value? = nil, protocolVersion: String? = nil) -> Bool {
        state.withLock { state in
            guard state.capabilities == nil else { return false }
            state.capabilities = capabilities
            state.clientInfo = clientInfo
            state.protocolVersion = protocolVersion
            return true
        }
    }

    /// The `clientInfo` and the revision negotiated in `initialize`; nil before it.
    package var client: (info: Value?, protocolVersion: String?) {
        state.withLock { ($0.clientInfo, $0.protocolVersion) }
    }

    /// The capabilities declared in `initialize`; nil before it.
    package var capabilities: [String: Value]? {
        state.withLock { $0.capabilities }
    }

    /// The level of `notifications/message` the client asked for (`logging/setLevel`).
    package var logLevel: LogLevel {
        state.withLock { $0.logLevel }
    }

    /// Records the level `logging/setLevel` asked for.
    package func setLogLevel(_ level: LogLevel) {
        state.withLock { $0.logLevel = level }
    }
}
