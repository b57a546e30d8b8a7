import Foundation
import SwiftDBAIPrimitives

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Notices that nobody reads an output descriptor any more: the read end of a pipe was closed
/// (`POLLERR`), a socket or a terminal hung up (`POLLHUP`).
///
/// It polls in short rounds rather than blocking for good, so it never holds a descriptor
/// that its owner closes (a pipe stays open while a `poll(2)` on it is pending), and it stops
/// when the descriptor number comes to name another file. An output that cannot go away (a
/// regular file, `/dev/null`) is simply watched until ``stop()``.
package final class OutputWatcher: Sendable {
    private let output: CInt
    private let isStopped = Mutex(false)
    /// How long one round of `poll(2)` waits.
    package static let round: Int32 = 200

    package init(output: CInt) {
        self.output = output
    }

    /// Stops watching within one round.
    package func stop() {
        isStopped.withLock { $0 = true }
    }

    /// Watches on the calling thread until the output goes away (then calls `closed`, once) or
    /// until ``stop()``.
    package func run(closed: () -> Void) {
        guard output >= 0, let identity = Self.identity(of: output) else { return }
        var request = pollfd(fd: output, events: 0, revents: 0)
        while !isStopped.withLock({ $0 }) {
            guard Self.identity(of: output) == identity else { return }
            request.revents = 0
            let ready = poll(&request, 1, Self.round)
            if ready < 0, errno != EINTR { return }
            if ready > 0 {
                if request.revents & Int16(POLLNVAL) != 0 { return }
                if request.revents & Int16(POLLERR | POLLHUP) != 0 {
                    if !isStopped.withLock({ $0 }) { closed() }
                    return
                }
            }
        }
    }

    /// The device and inode the descriptor names, or nil when it is not open.
    private static func identity(of descriptor: CInt) -> [UInt64]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
