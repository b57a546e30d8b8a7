import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIChat

/// One client's session: its capabilities (from `initialize`), the log level it asked for, its
/// `ask` conversations and the confirmation tokens of its writes. Over stdio there is one; over
/// HTTP each `Mcp-Session-Id` has its own, so nothing one client holds is visible to another.
///
/// A lock rather than an actor for the capabilities and the log level: every tool call reads
/// them several times, and they are two small values; a lock spares an actor hop on each read.
final class ClientSession: Sendable {
    private struct State {
        var capabilities: Client.Capabilities?
        var logLevel: LogLevel = .warning
        var showsApps = false
    }

    private let state = Mutex(State())
    /// The conversations of `ask` in this session.
    let conversations = ConversationStore()
    /// The system prompts the client's model (through sampling) has answered.
    let readPrompts = ReadPrompts()
    /// The confirmation tokens of this session's writes, by database name.
    private let tokens: [String: ConfirmationTokenStore]

    /// A session for the databases named.
    init(databases: [String]) {
        tokens = Dictionary(uniqueKeysWithValues: databases.map { ($0, ConfirmationTokenStore()) })
    }

    func initialized(with capabilities: Client.Capabilities) {
        state.withLock { $0.capabilities = capabilities }
    }

    /// Records that the client declared MCP Apps (``AppsExtension``) in `initialize`.
    func declaredApps() {
        state.withLock { $0.showsApps = true }
    }

    /// True when the client declared MCP Apps: it shows the result view.
    var showsApps: Bool {
        state.withLock { $0.showsApps }
    }

    func setLogLevel(_ level: LogLevel) {
        state.withLock { $0.logLevel = level }
    }

    /// The confirmation tokens of writes on a database, in this session.
    func tokens(for database: String) -> ConfirmationTokenStore {
        tokens[database] ?? ConfirmationTokenStore()
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
