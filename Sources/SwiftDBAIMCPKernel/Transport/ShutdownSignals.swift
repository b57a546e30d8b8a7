import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the given signals (SIGTERM, SIGINT…) into one call of a handler, instead of the default
/// action that kills the process at once — in the middle of a write, leaving a hot journal.
///
/// `@unchecked Sendable`: `DispatchSourceSignal` is not `Sendable`; the sources are only
/// created, then cancelled, never changed.
package final class ShutdownSignals: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Starts listening. The first signal calls `handler` and restores the default actions, so
    /// a second one ends the process at once.
    package init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                for other in signals { signal(other, SIG_DFL) }
                handler(number)
            }
            source.resume()
            return source
        }
    }

    /// Stops listening.
    package func cancel() {
        for source in sources { source.cancel() }
    }
}
