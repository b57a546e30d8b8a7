/// A first-in, first-out async semaphore that bounds how many HTTP requests run at once.
///
/// On Linux, FoundationNetworking's URLSession has crashed under concurrent requests (a
/// use-after-free around its libcurl multi handle), so every HTTP language model there funnels
/// its requests through ``shared``, one at a time. Elsewhere the limiter is not used. Waiting is
/// cancellable: a cancelled waiter leaves the queue and throws `CancellationError`.
actor RequestLimiter {
    /// The process-wide limiter the HTTP language models use on Linux: one request in flight.
    static let shared = RequestLimiter(limit: 1)

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private var available: Int
    private var waiters: [Waiter] = []
    private var waitersHead = 0
    private var nextWaiterID: UInt64 = 0

    /// Creates a limiter that lets `limit` holders in at once (at least one).
    init(limit: Int) {
        available = max(1, limit)
    }

    /// Runs `operation` holding one permit, waiting in line for it first.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting, or what
    ///   `operation` throws.
    nonisolated func withPermit<Success: Sendable>(
        _ operation: () async throws -> Success
    ) async throws -> Success {
        try await acquire()
        let result: Result<Success, any Error>
        do {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        await release()
        return try result.get()
    }

    /// How many tasks wait for a permit (for tests).
    var waitingCount: Int { waiters.count - waitersHead }

    private func acquire() async throws {
        try Task.checkCancellation()
        if available > 0, waitingCount == 0 {
            available -= 1
            return
        }
        let id = nextWaiterID
        nextWaiterID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters.append(Waiter(id: id, continuation: continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func release() {
        if waitersHead < waiters.count {
            let next = waiters[waitersHead]
            waitersHead += 1
            compactWaiters()
            next.continuation.resume()
        } else {
            available += 1
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        guard let index = waiters[waitersHead...].firstIndex(where: { $0.id == id }) else {
            return  // Already given a permit; the holder releases it.
        }
        let waiter = waiters.remove(at: index)
        waiter.continuation.resume(throwing: CancellationError())
    }

    private func compactWaiters() {
        if waitersHead > 64, waitersHead * 2 > waiters.count {
            waiters.removeFirst(waitersHead)
            waitersHead = 0
        }
    }
}
