import SwiftDBAI
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

/// The request an `ask` conversation is answering now. A conversation's engine outlives the
/// request that started it; its model (sampling) and its confirmations (elicitation) must talk to
/// the client of the question being answered, on that request's own channel and turn — so they
/// read the peer here at each use, and ``answering(_:_:)`` sets it for one question at a time.
final class ConversationLink: Sendable {
    private let current = Mutex<(peer: Peer?, audit: AuditAttempt?, canElicit: Bool)>((nil, nil, false))
    /// Questions of the conversation, one at a time (the engine would also serialize them, but
    /// the peer must be set inside that order).
    private let questions = TurnQueue()

    /// The client of the question being answered; nil between questions.
    var peer: Peer? { current.withLock { $0.peer } }
    /// The audit record of the question being answered; nil between questions or without
    /// `--audit-log`.
    var audit: AuditAttempt? { current.withLock { $0.audit } }
    /// The client of the question being answered takes `elicitation/create` (handshake era, form
    /// elicitation declared): the conversation's writes are confirmed that way; else they are
    /// refused with the statement, or confirmed by the 2026-07-28 round trip.
    var canElicit: Bool { current.withLock { $0.canElicit } }

    /// Answers one question for `peer`'s request: waits for the earlier ones — out of the
    /// request's turn when it must wait, since the question before may itself be waiting for a
    /// turn behind calls that wait for this request — then runs `body` with this peer set, and
    /// clears it afterwards (a finished request is never reached again).
    func answering<T: Sendable>(
        _ peer: Peer?, audit: AuditAttempt? = nil, canElicit: Bool = false, _ body: () async throws -> T
    ) async throws -> T {
        let turn = questions.take(.exclusive)
        defer { turn.end() }
        if let peer, !turn.mayRun {
            try await peer.outsideTurn { try await turn.begin() }
        } else {
            try await turn.begin()
        }
        current.withLock { $0 = (peer, audit, canElicit) }
        defer { current.withLock { $0 = (nil, nil, false) } }
        return try await body()
    }
}
