import GRDBSQLite

/// Interrupts the statements running on a connection once a deadline passes.
///
/// Installed with SQLite's progress handler for the duration of one database access, so the
/// deadline applies to exactly that access and never to a later statement on the connection.
///
/// `@unchecked Sendable`: ``didExpire`` is written only on the database's serial queue while the
/// access runs, and read after the access has completed.
final class StatementDeadline: @unchecked Sendable {
    private let deadline: ContinuousClock.Instant
    private(set) var didExpire = false

    /// SQLite virtual-machine instructions between two deadline checks.
    private static let instructionsPerCheck: Int32 = 1_000

    init(timeout: Duration) {
        deadline = ContinuousClock.now.advanced(by: timeout)
    }

    /// Runs `body` with the deadline armed on `connection`.
    func armed<T>(on connection: OpaquePointer?, _ body: () throws -> T) rethrows -> T {
        guard let connection else { return try body() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(connection, Self.instructionsPerCheck, { context in
            guard let context else { return 0 }
            return Unmanaged<StatementDeadline>.fromOpaque(context).takeUnretainedValue().check()
        }, context)
        defer { sqlite3_progress_handler(connection, 0, nil, nil) }
        return try withExtendedLifetime(self) { try body() }
    }

    private func check() -> Int32 {
        if ContinuousClock.now >= deadline {
            didExpire = true
            return 1
        }
        return 0
    }
}
