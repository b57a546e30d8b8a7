import Foundation
import MCP
import SwiftDBAIMCPKernel

/// The channel of one stateless (2026-07-28) POST: the request's notifications (when its client
/// takes server-sent events) and then its response, on that POST's own response. Each POST is
/// a scope of its own: ids of different clients never meet. When the HTTP server drops the
/// stream (a client that went away while events were written to it), the request is cancelled
/// (its statement is interrupted, a write rolled back).
struct StatelessExchangeChannel: ReplyChannel {
    let scope: Int
    let events: Bool
    let origin: ClientOrigin
    private let continuation: AsyncStream<HTTPOutgoing>.Continuation

    /// The channel of request `id`, its stream, and the cancellation of the request when the
    /// stream's reader goes away first.
    static func open(
        id: ID, scope: Int, events: Bool, origin: ClientOrigin, dispatcher: MessageDispatcher
    ) -> (channel: StatelessExchangeChannel, stream: AsyncStream<HTTPOutgoing>) {
        let (stream, continuation) = AsyncStream.makeStream(of: HTTPOutgoing.self)
        continuation.onTermination = { termination in
            if case .cancelled = termination { Task { await dispatcher.cancel(id, scope: scope) } }
        }
        return (StatelessExchangeChannel(scope: scope, events: events, origin: origin, continuation: continuation), stream)
    }

    func send(_ data: Data) async throws {
        // No other stream exists under 2026-07-28: without events, notifications are dropped.
        if events { continuation.yield(HTTPOutgoing(data: data, isFinal: false)) }
    }

    func respond(_ data: Data) async throws {
        continuation.finishing(with: HTTPOutgoing(data: data, isFinal: true))
    }

    func refuse(_ data: Data) async throws {
        continuation.finishing(with: HTTPOutgoing(data: data, isFinal: true, isRefusal: true))
    }

    func abandon() async {
        continuation.finish()
    }
}
