import Foundation
import MCP

/// What the server knows about the connected client: its capabilities (from `initialize`) and
/// the log level it asked for.
///
/// A lock rather than an actor: every tool call reads it several times, and the state is two
/// small values; a lock spares an actor hop on each read.
final class ClientSession: @unchecked Sendable {
    private let lock = NSLock()
    private var capabilities: Client.Capabilities?
    private var logLevel: LogLevel = .warning

    func initialized(with capabilities: Client.Capabilities) {
        lock.withLock { self.capabilities = capabilities }
    }

    func setLogLevel(_ level: LogLevel) {
        lock.withLock { logLevel = level }
    }

    /// True when the client declared form elicitation.
    var supportsElicitation: Bool {
        lock.withLock { capabilities?.elicitation != nil }
    }

    /// True when the client declared sampling (its own model can answer `ask`).
    var supportsSampling: Bool {
        lock.withLock { capabilities?.sampling != nil }
    }

    /// True when a message at `level` should be sent to the client.
    func wants(_ level: LogLevel) -> Bool {
        let minimum = lock.withLock { logLevel }
        let order = LogLevel.allCases
        return (order.firstIndex(of: level) ?? 0) >= (order.firstIndex(of: minimum) ?? 0)
    }
}
