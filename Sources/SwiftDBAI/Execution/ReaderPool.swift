import Foundation
import GRDB
import SwiftDBAIPrimitives

/// Read-only connections to one database file, so that reads run side by side instead of
/// queueing behind a slow one. SQLite allows it in every journal mode: readers share the file's
/// lock (in rollback-journal mode a writer waits for them; in WAL mode it does not).
///
/// The pool never waits for a connection: the executor's ``TurnQueue`` admits at most
/// ``capacity`` reads at once. Connections open on first need and stay open.
final class ReaderPool: Sendable {
    /// The most connections the pool opens.
    let capacity: Int
    private let path: String
    private let configuration: Configuration
    private struct Connections {
        /// Open and not in use.
        var idle: [DatabaseQueue] = []
        /// Every connection opened, in use or not.
        var all: [DatabaseQueue] = []
        /// Closed: no connection is handed out any more.
        var closed = false
    }

    private let connections = Mutex(Connections())

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
        _ body: @escaping @Sendable (Database) throws -> T, fallback: WriterConnection
    ) async throws -> T {
        guard let connection = try? checkOut() else { return try await fallback.queue().read(body) }
        defer { connections.withLock { $0.idle.append(connection) } }
        return try await connection.read(body)
    }

    /// Interrupts the statements running on every connection of the pool.
    func interrupt() {
        for connection in connections.withLock({ $0.all }) { connection.interrupt() }
    }

    /// Closes the idle connections; later reads go to the fallback (which fails once closed too).
    func close() {
        let idle = connections.withLock { state in
            defer { state.idle = []; state.closed = true }
            return state.idle
        }
        for connection in idle { try? connection.close() }
    }

    private struct Closed: Error {}

    private func checkOut() throws -> DatabaseQueue {
        let (idle, closed) = connections.withLock { ($0.idle.popLast(), $0.closed) }
        if closed { throw Closed() }
        if let idle { return idle }
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        connections.withLock { $0.all.append(connection) }
        return connection
    }
}
