import Foundation
import SwiftDBAI

/// The place of one `tools/call` in the order requests arrived: reads share their turn, writes
/// take theirs alone, so pipelined writes apply in the order they were sent and a read sees
/// every write sent before it — while independent reads still run side by side.
///
/// A call that waits for the user (elicitation) steps out of the order meanwhile
/// (``outside(_:)``): the calls behind it go on, and it takes a new turn, at the back, once the
/// user answered. The request's turn travels with it, in its ``RequestContext``'s ``Peer``.
final class RequestTurn: Sendable {
    private let queue: TurnQueue
    private let kind: TurnQueue.Kind
    private let turn: Mutex<TurnQueue.Turn>

    /// Takes the next place in `queue` now (in arrival order).
    init(queue: TurnQueue, kind: TurnQueue.Kind) {
        self.queue = queue
        self.kind = kind
        turn = Mutex(queue.take(kind))
    }

    /// Waits for the turn.
    ///
    /// - Throws: `CancellationError` when the request is cancelled first.
    func begin() async throws {
        try await turn.withLock { $0 }.begin()
    }

    /// Ends the turn (or gives it up).
    func end() {
        turn.withLock { $0 }.end()
    }

    /// Runs `body` out of turn (ending the current one), then waits for a new turn of the same
    /// kind, at the back of the queue.
    func outside<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        end()
        let value = try await body()
        let next = queue.take(kind)
        turn.withLock { $0 = next }
        try await next.begin()
        return value
    }
}
