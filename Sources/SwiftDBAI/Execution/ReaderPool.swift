import Foundation
import GRDB

/// Read-only connections to one database file, so that reads run side by side instead of
/// queueing behind a slow one. SQLite allows it in every journal mode: readers share the file's
/// lock (in rollback-journal mode a writer waits for them; in WAL mode it does not).
///
/// The pool never waits for a connection: the executor's ``TurnQueue`` admits at most
/// ``capacity`` reads at once. Connections open on first need and stay open.
final class ReaderPool: @unchecked Sendable {
    /// The most connections the pool opens.
    let capacity: Int
    private let path: String
    private let configuration: Configuration
    private let lock = NSLock()
    private var idle: [DatabaseQueue] = []
    private var all: [DatabaseQueue] = []

    init(path: String, configuration: Configuration, capacity: Int) {
        self.path = path
        self.configuration = configuration
        self.capacity = max(1, capacity)
    }

    /// Runs `body` in a read-only transaction on an idle connection (opened if needed), or on
    /// `fallback` when no new connection can open (the file was removed since the executor
    /// opened it: the executor's own connection still reads it).
    ///
    /// - Throws: the error of `body`.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, fallback: DatabaseQueue
    ) async throws -> T {
        guard let connection = try? checkOut() else { return try await fallback.read(body) }
        defer { lock.withLock { idle.append(connection) } }
        return try await connection.read(body)
    }

    /// Interrupts the statements running on every connection of the pool.
    func interrupt() {
        for connection in lock.withLock({ all }) { connection.interrupt() }
    }

    /// Closes the idle connections (the pool is not used afterwards).
    func close() {
        for connection in lock.withLock({ idle }) { try? connection.close() }
    }

    private func checkOut() throws -> DatabaseQueue {
        if let connection = lock.withLock({ idle.popLast() }) { return connection }
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        lock.withLock { all.append(connection) }
        return connection
    }
}
