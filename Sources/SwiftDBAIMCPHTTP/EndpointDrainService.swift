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

/// The drain of ``StreamableHTTPEndpoint`` as a ServiceLifecycle service. Listed after the
/// listener (the HTTP application's group), so that on a shutdown signal it runs first (a
/// service group stops its services in reverse order) while the listener and its connections
/// are still open — a client can still answer an elicitation:
///
/// 1. no new session or request is taken (503);
/// 2. every request in flight is answered, within the statement timeout plus 5 s (then the
///    rest are cancelled: their writes roll back);
/// 3. every session ends.
///
/// Then the group stops the listener: it closes, and so do the connections (those still open
/// 5 s later are cut).
///
/// The shutdown signals get their default action back as the drain starts, so that a second
/// one ends the process at once (the group, which trapped them, would ignore it).
struct EndpointDrainService: Service {
    let endpoint: StreamableHTTPEndpoint
    /// How long the calls in flight have to finish.
    let grace: Duration
    /// The signals that start the shutdown.
    let signals: [Int32]
    let logger: Logger

    func run() async {
        // Until the group shuts down; a cancelled group (the server could not start) ends here.
        guard (try? await gracefulShutdown()) != nil else { return }
        for number in signals { signal(number, SIG_DFL) }
        logger.notice("Shutting down: finishing the calls in flight")
        do {
            try await firstOutcome(within: grace) { await endpoint.drain() }
        } catch is TimeLimitExceeded {
            logger.warning("Calls still running after \(grace): cancelling them")
        } catch {
            // Cancelled: the group is being cancelled; the calls end with it.
        }
        await endpoint.closeAll()
    }
}
