import Foundation
import SwiftDBAI

/// The place of one `tools/call` in the order requests arrived: reads share their turn, writes
/// take theirs alone, so pipelined writes apply in the order they were sent and a read sees
/// every write sent before it — while independent reads still run side by side.
///
/// A write that waits for the user (elicitation) steps out of the order meanwhile
/// (``outside(_:)``): the calls behind it go on, and the write takes a new turn, at the back,
/// once confirmed.
final class RequestTurn: @unchecked Sendable {
    private let queue: TurnQueue
    private let lock = NSLock()
    private var current: TurnQueue.Turn

    /// Takes the next place in `queue` now (in arrival order).
    init(queue: TurnQueue, kind: TurnQueue.Kind) {
        self.queue = queue
        current = queue.take(kind)
    }

    /// Waits for the turn.
    ///
    /// - Throws: `CancellationError` when the request is cancelled first.
    func begin() async throws {
        try await lock.withLock { current }.begin()
    }

    /// Ends the turn (or gives it up).
    func end() {
        lock.withLock { current }.end()
    }

    /// Runs `body` out of turn (ending the current one), then waits for a new exclusive turn.
    func outside<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        end()
        let value = try await body()
        let next = queue.take(.exclusive)
        lock.withLock { current = next }
        try await next.begin()
        return value
    }
}
