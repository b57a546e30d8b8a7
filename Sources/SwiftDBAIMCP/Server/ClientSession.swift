import Foundation
import MCP
import SwiftDBAI

/// What the server knows about the connected client: its capabilities (from `initialize`) and
/// the log level it asked for.
///
/// A lock rather than an actor: every tool call reads it several times, and the state is two
/// small values; a lock spares an actor hop on each read.
final class ClientSession: Sendable {
    private struct State {
        var capabilities: Client.Capabilities?
        var logLevel: LogLevel = .warning
    }

    private let state = Mutex(State())

    func initialized(with capabilities: Client.Capabilities) {
        state.withLock { $0.capabilities = capabilities }
    }

    func setLogLevel(_ level: LogLevel) {
        state.withLock { $0.logLevel = level }
    }

    /// True when the client declared form elicitation.
    var supportsElicitation: Bool {
        state.withLock { $0.capabilities?.elicitation != nil }
    }

    /// True when the client declared sampling (its own model can answer `ask`).
    var supportsSampling: Bool {
        state.withLock { $0.capabilities?.sampling != nil }
    }

    /// True when a message at `level` should be sent to the client.
    func wants(_ level: LogLevel) -> Bool {
        let minimum = state.withLock { $0.logLevel }
        let order = LogLevel.allCases
        return (order.firstIndex(of: level) ?? 0) >= (order.firstIndex(of: minimum) ?? 0)
    }
}
