import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIConcurrency

/// The state of one handshake-era session (2025-11-25 and older): the capabilities the client
/// declared in `initialize`, the log level it asked for, its `ask` conversations and the
/// confirmation tokens of its writes. Over stdio there is one; over HTTP each `Mcp-Session-Id`
/// has its own, so nothing one client holds is visible to another.
///
/// Stateless (2026-07-28) requests declare their capabilities themselves; they share one
/// server-wide instance for their handles only (conversation ids, confirmation tokens).
///
/// A lock rather than an actor for the capabilities and the log level: every tool call reads
/// them, and they are two small values; a lock spares an actor hop on each read.
final class ClientSession: Sendable {
    private struct State {
        var capabilities: [String: Value]?
        /// `clientInfo` and the negotiated revision, from `initialize`.
        var clientInfo: Value?
        var protocolVersion: String?
        var logLevel: LogLevel = .warning
        var showsApps = false
    }

    private let state = Mutex(State())
    /// The conversations of `ask` in this session.
    let conversations: ConversationStore
    /// The system prompts the client's model (through sampling) has answered.
    let readPrompts = ReadPrompts()
    /// The confirmation tokens of this session's writes, by database name.
    private let tokens: [String: ConfirmationTokenStore]

    /// A session for the databases named; `stateless` for the state the stateless requests share
    /// (conversations continue only under ids the server made).
    /// With an `archive` (`--state-dir`), conversations the server started outlive the process.
    init(databases: [String], stateless: Bool = false, archive: ConversationArchive? = nil) {
        conversations = stateless
            ? ConversationStore(capacity: 256, requiresKnownIDs: true, archive: archive) : ConversationStore(archive: archive)
        tokens = Dictionary(uniqueKeysWithValues: databases.map { ($0, ConfirmationTokenStore()) })
    }

    /// Records what `initialize` declared: its capabilities, and whether the session shows the
    /// result view (MCP Apps). False, changing nothing, when the session was initialized already.
    func initialize(
        capabilities: [String: Value], showsApps: Bool, clientInfo: Value? = nil, protocolVersion: String? = nil
    ) -> Bool {
        state.withLock { state in
            guard state.capabilities == nil else { return false }
            state.capabilities = capabilities
            state.showsApps = showsApps
            state.clientInfo = clientInfo
            state.protocolVersion = protocolVersion
            return true
        }
    }

    /// The `clientInfo` and the revision negotiated in `initialize`; nil before it.
    var client: (info: Value?, protocolVersion: String?) {
        state.withLock { ($0.clientInfo, $0.protocolVersion) }
    }

    /// The capabilities declared in `initialize`; nil before it.
    var capabilities: [String: Value]? {
        state.withLock { $0.capabilities }
    }

    /// True when the client declared MCP Apps (``AppsExtension``) in `initialize`.
    var showsApps: Bool {
        state.withLock { $0.showsApps }
    }

    /// The level of `notifications/message` the client asked for (`logging/setLevel`).
    var logLevel: LogLevel {
        state.withLock { $0.logLevel }
    }

    func setLogLevel(_ level: LogLevel) {
        state.withLock { $0.logLevel = level }
    }

    /// The confirmation tokens of writes on a database, in this session.
    func tokens(for database: String) -> ConfirmationTokenStore {
        tokens[database] ?? ConfirmationTokenStore()
    }
}
