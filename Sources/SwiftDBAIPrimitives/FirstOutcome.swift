import Foundation

/// Resumes a continuation with the first outcome that arrives — an answer, a timeout or a
/// cancellation — and ignores the later ones.
package final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var pending: Result<Value, any Error>?
        var finishHandlers: [@Sendable () -> Void] = []
        var cancelHandlers: [@Sendable () -> Void] = []
        var isDone = false
        var isCancelled = false
    }

    private let state = Mutex(State())

    /// Creates an outcome no one has finished yet.
    package init() {}

    package func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let result: Result<Value, any Error>? = state.withLock { state in
            if let pending = state.pending { return pending }
            state.continuation = continuation
            return nil
        }
        if let result { continuation.resume(with: result) }
    }

    /// Delivers an outcome; true when it was the first.
    @discardableResult
    package func finish(_ result: Result<Value, any Error>) -> Bool {
        let (first, waiting, handlers): (Bool, CheckedContinuation<Value, any Error>?, [@Sendable () -> Void]) = state.withLock { state in
            guard !state.isDone else { return (false, nil, []) }
            state.isDone = true
            let waiting = state.continuation
            state.continuation = nil
            if waiting == nil { state.pending = result }
            let handlers = state.finishHandlers
            state.finishHandlers.removeAll()
            return (true, waiting, handlers)
        }
        waiting?.resume(with: result)
        for handler in handlers { handler() }
        return first
    }

    /// Runs `handler` once an outcome is delivered (now, if one already was).
    package func onFinish(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.isDone { return true }
            state.finishHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Runs `handler` when the waiting task is cancelled (now, if it already was).
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.isCancelled { return true }
            state.cancelHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// The waiting task was cancelled: deliver a cancellation and run the cancel handlers.
    package func cancel() {
        let handlers = state.withLock { state in
            state.isCancelled = true
            let handlers = state.cancelHandlers
            state.cancelHandlers.removeAll()
            return handlers
        }
        finish(.failure(CancellationError()))
        for handler in handlers { handler() }
    }
}

/// The time limit of ``firstOutcome(within:_:)`` passed.
package struct TimeLimitExceeded: Error, Sendable, Hashable {
    /// The limit that passed.
    package var limit: Duration
}

/// Runs `operation` in a task of its own and returns the first outcome: its result, a
/// ``TimeLimitExceeded`` after `limit`, or a `CancellationError` when the calling task is
/// cancelled. Unlike a task group, it never waits for an operation that ignores cancellation
/// (a request to a client that does not answer): that operation is cancelled and left behind.
package func firstOutcome<T: Sendable>(
    within limit: Duration?, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = FirstOutcome<T>()
    let work = Task {
        do {
            outcome.finish(.success(try await operation()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    let timer = limit.map { limit in
        Task {
            try await Task.sleep(for: limit)
            outcome.finish(.failure(TimeLimitExceeded(limit: limit)))
        }
    }
    outcome.onFinish {
        work.cancel()
        timer?.cancel()
    }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { outcome.install($0) }
    } onCancel: {
        outcome.cancel()
    }
}
