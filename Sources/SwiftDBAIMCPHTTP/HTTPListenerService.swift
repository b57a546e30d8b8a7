import CListenerGate
import Logging
import ServiceLifecycle
import SwiftDBAIPrimitives

/// The listener: the Hummingbird application, in a service group of its own so that the drain
/// (``EndpointDrainService``) stops it first. Stopping it:
///
/// 1. gates the listening socket (Linux): a socket filter drops new connections' first packet,
///    while those already made are accepted and their requests read, for ``settling``;
/// 2. closes it (a client whose first packet was dropped retries it about a second later and is
///    refused, having sent nothing, and a balancer tries the next replica) and quiesces the open
///    connections: an idle one closes at once, a busy one after its response.
///
/// Without the gate, a connection made in the instant the socket closes is reset after its
/// client sent the request, and a connection accepted an instant before, whose request is not
/// read yet, counts as idle and is closed: a balancer answers that POST 502 (never resending it).
/// It returns once every connection has closed, or when the group's deadline cuts the last ones.
final class HTTPListenerService: Service, Sendable {
    private let group: ServiceGroup
    /// The port listened on, once bound.
    private let port: @Sendable () -> Int?

    /// How long connections made before the gate have to be accepted and send their request.
    static let settling: Duration = .milliseconds(300)
    private let state = Mutex<(stopped: Bool, stopRequested: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, false, []))

    private let logger: Logger

    init(group: ServiceGroup, logger: Logger, port: @escaping @Sendable () -> Int?) {
        self.group = group
        self.logger = logger
        self.port = port
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
        if let port = port() {
            let gated = dbai_listener_ignore_new_connections(Int32(port))
            if gated > 0 {
                logger.notice("Listener on port \(port) ignores new connections; closing it in \(Self.settling)")
                try? await Task.sleep(for: Self.settling)
            } else {
                // Not Linux, or no socket filter: a connection made as the socket closes may be reset.
                logger.warning("Listener on port \(port) could not be gated (\(gated)); closing it at once")
            }
        }
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
