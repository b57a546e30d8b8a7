import ServiceLifecycle
import SwiftDBAIPrimitives

/// The listener: the Hummingbird application, in a service group of its own so that the drain
/// (``EndpointDrainService``) stops it first. Stopping it closes the listening socket (new
/// connections are refused, and a balancer tries the next replica) and quiesces the open
/// connections: an idle one closes at once, a busy one after its response. It returns once every
/// connection has closed, or when the group's deadline cuts the last ones.
final class HTTPListenerService: Service, Sendable {
    private let group: ServiceGroup
    private let state = Mutex<(stopped: Bool, stopRequested: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, false, []))

    init(group: ServiceGroup) {
        self.group = group
    }

    func run() async throws {
        do {
            try await group.run()
        } catch {
            // It could not listen: the whole server stops.
            markStopped()
            throw error
        }
        markStopped()
        // Stopped by the drain: stay until the parent group stops this service in its turn (a
        // service that returns before then would cancel the drain). Stopped by anything else, the
        // server has no listener left: return, and the group ends.
        guard state.withLock({ $0.stopRequested }) else { return }
        try? await gracefulShutdown()
    }

    /// Stops the listener and returns once it has stopped.
    func stop() async {
        state.withLock { $0.stopRequested = true }
        await group.triggerGracefulShutdown()
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiting.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }

    private func markStopped() {
        let waiting = state.withLock { state in
            state.stopped = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
