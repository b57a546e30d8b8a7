import Foundation

/// A value that one thread at a time may read or change: the package's one lock.
///
/// As in GRDB's `Mutex`, the state lives inside, so it cannot be touched without holding the
/// lock, and the classes that keep their state in one need no `@unchecked Sendable` of their
/// own. Keep the closures short; never wait inside them (no `await`, no I/O that may block).
///
/// ```swift
/// private let state = Mutex(State())
/// state.withLock { $0.count += 1 }
/// ```
package final class Mutex<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// Creates a mutex holding `value`.
    @inlinable
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    ///
    /// Inlinable, so that each caller gets a version specialized for its state (this runs on
    /// every tool call).
    ///
    /// - Throws: what `body` throws.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
