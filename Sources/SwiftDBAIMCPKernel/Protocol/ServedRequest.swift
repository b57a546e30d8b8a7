import Foundation
import MCP
import SwiftDBAIPrimitives

/// Everything the handler of one request needs, passed explicitly: the request, what its client
/// declared, and the way back to that client.
package struct ServedRequest: Sendable {
    /// The request's id.
    package let id: ID
    /// The method.
    package let method: String
    /// The params object (empty when there were none).
    package let params: [String: Value]
    /// What the client declared, for this request.
    package let client: ClientFacts
    /// The client, to talk back to while answering.
    package let peer: Peer

    /// A string parameter; a present value of another type is an invalid-params error.
    package func string(_ name: String) throws(ProtocolError) -> String? {
        switch params[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .invalidParams("Invalid params for \(method): \(name) must be a string.")
        }
    }
}

/// What the client of one request declared: under the stateless revision, from that request's
/// `_meta`; under the handshake, from `initialize` (and `logging/setLevel`).
package struct ClientFacts: Sendable {
    /// How the request was negotiated.
    package enum Era: Sendable, Equatable {
        /// `initialize` (2025-11-25 and older), for the process or the HTTP session.
        case handshake
        /// 2026-07-28: everything in the request itself.
        case stateless
    }

    package let era: Era
    /// The declared capabilities (an object), nil when none were declared.
    package let capabilities: [String: Value]?
    /// The level of `notifications/message` the client wants; nil for none.
    package let logLevel: LogLevel?
    /// The `clientInfo` of a stateless request's `_meta`; nil in the handshake era (the
    /// session's ``ProtocolSession/client`` holds it).
    package var statelessClientInfo: Value? = nil
    /// The handshake-era session the request belongs to; nil for a stateless request.
    package var session: ProtocolSession? = nil

    /// True when the client takes form elicitation: `elicitation: {}` (form only) or with `form`.
    package var supportsElicitation: Bool {
        guard case .object(let modes)? = capabilities?["elicitation"] else { return false }
        return modes.isEmpty || modes["form"] != nil
    }
    /// True when the client declared sampling (its own model can answer `ask`). Never under the
    /// stateless revision: the server cannot send it requests.
    package var supportsSampling: Bool { era == .handshake && capabilities?["sampling"] != nil }

    /// The client's `clientInfo` and protocol revision.
    package var identity: (info: Value?, protocolVersion: String?) {
        switch era {
        case .handshake: session?.client ?? (nil, nil)
        case .stateless: (statelessClientInfo, ProtocolRevision.stateless)
        }
    }

    /// True when a message at `level` goes to the client.
    package func wants(_ level: LogLevel) -> Bool {
        guard let logLevel else { return false }
        let order = LogLevel.allCases
        return (order.firstIndex(of: level) ?? 0) >= (order.firstIndex(of: logLevel) ?? 0)
    }
}

/// The client of one request, to talk back to while answering it: notifications go with the
/// request (on its HTTP stream), and requests to the client (handshake era only) step out of
/// the request's turn while they wait, so that the calls behind it go on.
package struct Peer: Sendable {
    /// Weak: a peer kept by mistake must not keep a finished session's dispatcher alive.
    private weak var weakDispatcher: MessageDispatcher?
    private var dispatcher: MessageDispatcher {
        get throws {
            guard let weakDispatcher else { throw CancellationError() }
            return weakDispatcher
        }
    }
    package let channel: any ReplyChannel
    /// The request's place in the order of calls; nil for requests that take none.
    package let turn: RequestTurn?

    package init(dispatcher: MessageDispatcher, channel: any ReplyChannel, turn: RequestTurn?) {
        weakDispatcher = dispatcher
        self.channel = channel
        self.turn = turn
    }

    /// Runs `body` out of the request's turn (see ``RequestTurn/outside(_:)``): for waits on
    /// something another request holds, which must not keep the calls behind this one waiting.
    package func outsideTurn<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let turn else { return try await body() }
        return try await turn.outside(body)
    }

    /// Sends a notification about the request.
    package func notify(_ method: String, _ params: Value) async {
        let message: Value = ["jsonrpc": "2.0", "method": .string(method), "params": params]
        try? await channel.send(JSONMessageWriter.data(message))
    }

    /// Sends a request to the client and waits for its result, at most `timeout`, out of turn.
    ///
    /// - Throws: ``ProtocolError`` with the client's error; `TimeLimitExceeded` after `timeout`;
    ///   `CancellationError` when the call is cancelled, or when the session ends first.
    package func request(_ method: String, _ params: Value, timeout: Duration) async throws -> Value {
        let dispatcher = try dispatcher
        let body = { [channel] in
            try await firstOutcome(within: timeout) { try await dispatcher.request(method, params, on: channel) }
        }
        guard let turn else { return try await body() }
        return try await turn.outside(body)
    }
}
