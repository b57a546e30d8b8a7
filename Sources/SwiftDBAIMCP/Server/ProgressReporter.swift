import MCP

/// Sends `notifications/progress` for one request that carried a progress token: one at the
/// start, a heartbeat while the statement runs, and one at the end. Progress only increases.
struct ProgressReporter: Sendable {
    /// Sends one notification: progress so far and a message.
    let send: @Sendable (_ progress: Double, _ message: String) async -> Void
    /// Time between heartbeats.
    var interval: Duration = .milliseconds(250)

    /// Runs `body`, reporting progress while it runs when `reporter` is not nil. Heartbeats say
    /// what `status` says is happening, when it says something.
    static func reporting<T: Sendable>(
        _ reporter: ProgressReporter?, status: @escaping @Sendable () -> String? = { nil }, _ body: () async throws -> T
    ) async throws -> T {
        guard let reporter else { return try await body() }
        await reporter.send(0, "started")
        let start = ContinuousClock.now
        let heartbeat = Task {
            var step = 0.0
            while !Task.isCancelled {
                try await Task.sleep(for: reporter.interval)
                step += 1
                let elapsed = Int((ContinuousClock.now - start).roundedMilliseconds)
                await reporter.send(step, status().map { "\($0) (\(elapsed) ms)" } ?? "running for \(elapsed) ms")
            }
        }
        defer { heartbeat.cancel() }
        let result = try await body()
        heartbeat.cancel()
        _ = await heartbeat.result
        let elapsed = Int((ContinuousClock.now - start).roundedMilliseconds)
        let steps = (ContinuousClock.now - start) / reporter.interval
        await reporter.send(steps.rounded(.up) + 1, "done in \(elapsed) ms")
        return result
    }
}
