#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import ServiceLifecycle
import SwiftDBAIPrimitives

/// The drain of ``StreamableHTTPEndpoint`` as a ServiceLifecycle service, in the order a load
/// balancer never sees fail. Listed after the listener, so that on a shutdown signal it runs
/// first (a service group stops its services in reverse order):
///
/// 1. `/readyz` answers 503 `draining`, and no session starts; everything else is served as
///    before for `--drain-delay` (0 s by default), so that a balancer that probes stops sending;
/// 2. the listener closes (``HTTPListenerService``): new connections are refused, so that a
///    balancer passes them to another replica; each open connection closes once idle, after the
///    response it is sending;
/// 3. the requests already received are answered meanwhile, stateless ones included; each
///    2025-11-25 session ends once its calls are answered (its new requests get 503);
/// 4. everything left when the deadline (the statement timeout plus 5 s) passes is cancelled:
///    writes roll back, and the connections are cut.
///
/// The shutdown signals get their default action back as the drain starts, so that a second
/// one ends the process at once (the group, which trapped them, would ignore it).
struct EndpointDrainService: Service {
    let endpoint: StreamableHTTPEndpoint
    let listener: HTTPListenerService
    /// How long the calls in flight have to finish.
    let grace: Duration
    /// The signals that start the shutdown.
    let signals: [Int32]
    let logger: Logger

    func run() async {
        // Until the group shuts down; a cancelled group (the server could not start) ends here.
        guard (try? await gracefulShutdown()) != nil else { return }
        for number in signals { signal(number, SIG_DFL) }
        await endpoint.beginDrain()
        let delay = endpoint.options.drainDelay
        if delay > .zero {
            logger.notice("Shutting down: /readyz says draining; the listener closes in \(delay)")
            try? await Task.sleep(for: delay)
        }
        logger.notice("Shutting down: closing the listener, finishing the calls in flight")
        do {
            try await firstOutcome(within: grace) { [endpoint, listener] in
                async let sessions: Void = endpoint.drainSessions()
                await listener.stop()
                await sessions
                // Past the deadline, closeAll has ended everything already.
                guard !Task.isCancelled else { return }
                await endpoint.finishStatelessRequests()
            }
        } catch is TimeLimitExceeded {
            logger.warning("Calls still running after \(grace): cancelling them")
        } catch {
            // Cancelled: the group is being cancelled; the calls end with it.
        }
        await endpoint.closeAll()
    }
}
