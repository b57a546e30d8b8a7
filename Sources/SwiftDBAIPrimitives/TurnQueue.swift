import Foundation

/// A first-come, first-served readers–writer queue: shared turns run together, an exclusive
/// turn runs alone, and every turn starts in the order it was taken.
///
/// A turn is taken synchronously (``take(_:)``), so its place is fixed at that moment — for
/// example in the order messages arrive — and waited for later (``Turn/begin()``). A shared
/// turn behind an exclusive one waits for it, so writers are never starved by a stream of
/// readers.
///
/// ```swift
/// let turn = queue.take(.exclusive)
/// try await turn.begin()
/// defer { turn.end() }
/// ```
package final class TurnQueue: Sendable {
    /// How a turn shares the queue.
    package enum Kind: Sendable {
        /// Runs alongside other shared turns.
        case shared
        /// Runs alone.
        case exclusive
    }

    /// One place in the queue.
    /// `@unchecked Sendable`: its state and continuation change only inside the queue's mutex.
    package final class Turn: @unchecked Sendable {
        fileprivate enum State {
            case waiting
            case active
            case ended
        }

        package let kind: Kind
        fileprivate let queue: TurnQueue
        fileprivate var state = State.waiting
        fileprivate var continuation: CheckedContinuation<Void, any Error>?

        fileprivate init(kind: Kind, queue: TurnQueue) {
            self.kind = kind
            self.queue = queue
        }

        /// Returns when the turn may run.
        ///
        /// - Throws: `CancellationError` when the task is cancelled while waiting; the turn is
        ///   then given up.
        package func begin() async throws {
            // Most turns start as they are taken: no suspension then.
            if queue.hasStarted(self) { return }
            try await queue.wait(for: self)
        }

        /// True when the turn may run now: ``begin()`` would not wait.
        package var mayRun: Bool { queue.hasStarted(self) }

        /// Ends the turn (or gives it up if it has not begun). Calling it again does nothing.
        package func end() {
            queue.end(self)
        }
    }

    /// The most shared turns that run at once; the next ones wait.
    package let maxShared: Int
    private struct State {
        var waiting: [Turn] = []
        var activeShared = 0
        var activeExclusive = false
    }

    private let state = Mutex(State())

    /// Creates an empty queue.
    ///
    /// - Parameter maxShared: the most shared turns that run at once (no limit by default).
    package init(maxShared: Int = .max) {
        self.maxShared = max(1, maxShared)
    }

    /// Takes the next place in the queue.
    package func take(_ kind: Kind) -> Turn {
        let turn = Turn(kind: kind, queue: self)
        state.withLock { state in
            state.waiting.append(turn)
            grant(&state)
        }
        return turn
    }

    /// Takes a turn, runs `body` in it, and ends it.
    package func run<T>(_ kind: Kind, _ body: () async throws -> T) async throws -> T {
        let turn = take(kind)
        defer { turn.end() }
        try await turn.begin()
        return try await body()
    }

    fileprivate func hasStarted(_ turn: Turn) -> Bool {
        state.withLock { _ in turn.state == .active }
    }

    fileprivate func wait(for turn: Turn) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, granted): (Result<Void, any Error>?, [CheckedContinuation<Void, any Error>]) =
                    state.withLock { state in
                        switch turn.state {
                        case .active: return (.success(()), [])
                        case .ended: return (.failure(CancellationError()), [])
                        case .waiting:
                            if Task.isCancelled {
                                return (.failure(CancellationError()), remove(turn, from: &state))
                            }
                            turn.continuation = continuation
                            return (nil, [])
                        }
                    }
                for other in granted { other.resume() }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let (continuation, granted): (CheckedContinuation<Void, any Error>?, [CheckedContinuation<Void, any Error>]) =
                state.withLock { state in
                    guard turn.state == .waiting else { return (nil, []) }
                    let granted = remove(turn, from: &state)
                    defer { turn.continuation = nil }
                    return (turn.continuation, granted)
                }
            for other in granted { other.resume() }
            continuation?.resume(throwing: CancellationError())
        }
    }

    fileprivate func end(_ turn: Turn) {
        let granted: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            switch turn.state {
            case .ended:
                return []
            case .waiting:
                return remove(turn, from: &state)
            case .active:
                turn.state = .ended
                if turn.kind == .exclusive { state.activeExclusive = false } else { state.activeShared -= 1 }
                return grant(&state)
            }
        }
        for continuation in granted { continuation.resume() }
    }

    /// Removes a waiting turn (lock held) and lets the turns behind it go when they can.
    /// Takes a turn out of line (ended without running); returns the continuations of the
    /// turns that may start now, to resume outside the mutex.
    private func remove(_ turn: Turn, from state: inout State) -> [CheckedContinuation<Void, any Error>] {
        turn.state = .ended
        state.waiting.removeAll { $0 === turn }
        return grant(&state)
    }

    /// Starts the turns at the head of the line that may run now; returns the continuations of
    /// those that wait, to resume outside the mutex.
    @discardableResult
    private func grant(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        var granted: [CheckedContinuation<Void, any Error>] = []
        while let head = state.waiting.first, !state.activeExclusive {
            if head.kind == .exclusive ? state.activeShared > 0 : state.activeShared >= maxShared { break }
            state.waiting.removeFirst()
            head.state = .active
            if head.kind == .exclusive { state.activeExclusive = true } else { state.activeShared += 1 }
            if let continuation = head.continuation {
                head.continuation = nil
                granted.append(continuation)
            }
            if head.kind == .exclusive { break }
        }
        return granted
    }
}
