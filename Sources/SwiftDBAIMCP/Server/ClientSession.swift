import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

/// What the database server keeps for one client's session beside the protocol's facts
/// (``ProtocolSession``): its `ask` conversations, the system prompts its model has read, the
/// confirmation tokens of its writes, and whether it shows the result view. Over stdio there is
/// one; over HTTP each `Mcp-Session-Id` has its own, so nothing one client holds is visible to
/// another.
///
/// Stateless (2026-07-28) requests share one server-wide instance for their handles only
/// (conversation ids, confirmation tokens).
final class ClientSession: Sendable {
    /// The protocol's facts of the session (capabilities, log level); nil for the state the
    /// stateless requests share.
    let protocolSession: ProtocolSession?
    private let apps = Mutex(false)
    /// The conversations of `ask` in this session.
    let conversations: ConversationStore
    /// The system prompts the client's model (through sampling) has answered.
    let readPrompts = ReadPrompts()
    /// The confirmation tokens of this session's writes, by database name.
    private let tokens: [String: any ConfirmationLedger]

    /// A session for the databases named; `stateless` for the state the stateless requests share
    /// (conversations continue only under ids the server made).
    /// With an `archive` (`--state-dir`), conversations the server started outlive the process;
    /// with a shared `ledger` (`--state-secret-file`), the stateless requests' confirmation tokens
    /// are kept there, for every replica.
    init(databases: [String], stateless: Bool = false, archive: ConversationArchive? = nil, ledger: ConfirmationLedgerFile? = nil) {
        protocolSession = stateless ? nil : ProtocolSession()
        conversations = stateless
            ? ConversationStore(capacity: 256, requiresKnownIDs: true, archive: archive) : ConversationStore(archive: archive)
        tokens = Dictionary(uniqueKeysWithValues: databases.map { name in
            let tokens: any ConfirmationLedger = if stateless, let ledger { ledger.ledger(for: name) } else { ConfirmationTokenStore() }
            return (name, tokens)
        })
    }

    /// True when the client declared MCP Apps (``AppsExtension``) in `initialize` and the server
    /// offers the view.
    var showsApps: Bool {
        get { apps.withLock { $0 } }
    }

    /// Records, at `initialize`, whether the session shows the result view.
    func setShowsApps(_ shows: Bool) {
        apps.withLock { $0 = shows }
    }

    /// The confirmation tokens of writes on a database, in this session.
    func tokens(for database: String) -> any ConfirmationLedger {
        tokens[database] ?? ConfirmationTokenStore()
    }
}
