import Foundation
import SwiftDBAIPrimitives

/// The place of one `tools/call` in the order requests arrived: reads share their turn, writes
/// take theirs alone, so pipelined writes apply in the order they were sent and a read sees
/// every write sent before it — while independent reads still run side by side.
///
/// A call that waits for the user (elicitation) steps out of the order meanwhile
/// (``outside(_:)``): the calls behind it go on, and it takes a new turn, at the back, once the
/// user answered. The request's turn travels with it, in its ``ServedRequest``'s ``Peer``.
package final class RequestTurn: Sendable {
    private struct State {
        var turn: TurnQueue.Turn
        /// The request was answered (or given up): no new turn is taken for it.
        var isFinished = false
    }

    private let queue: TurnQueue
    private let kind: TurnQueue.Kind
    private let state: Mutex<State>

    /// Takes the next place in `queue` now (in arrival order).
    package init(queue: TurnQueue, kind: TurnQueue.Kind) {
        self.queue = queue
        self.kind = kind
        state = Mutex(State(turn: queue.take(kind)))
    }

    /// Waits for the turn.
    ///
    /// - Throws: `CancellationError` when the request is cancelled first.
    package func begin() async throws {
        try await state.withLock { $0.turn }.begin()
    }

    /// Ends the turn for good: the request is done. A body still running ``outside(_:)`` takes
    /// no new turn afterwards.
    package func finish() {
        state.withLock { state in
            state.isFinished = true
            return state.turn
        }.end()
    }

    /// Runs `body` out of turn (ending the current one), then waits for a new turn of the same
    /// kind, at the back of the queue — whether `body` returned or threw, unless the request
    /// finished meanwhile.
    package func outside<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        state.withLock { $0.turn }.end()
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        let next: TurnQueue.Turn? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.turn = queue.take(kind)
            return state.turn
        }
        guard let next else { throw CancellationError() }
        try await next.begin()
        return try outcome.get()
    }
}
