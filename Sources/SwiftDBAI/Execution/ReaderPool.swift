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
    /// Whether each connection gets a ``ColumnMaskAuthorizer`` (columns are masked or hidden).
    private let masksColumns: Bool
    private struct Connection: Sendable {
        let queue: DatabaseQueue
        let authorizer: ColumnMaskAuthorizer?
    }
    private struct Connections {
        /// Open and not in use.
        var idle: [Connection] = []
        /// Every connection opened, in use or not.
        var all: [Connection] = []
        /// Closed: no connection is handed out any more.
        var closed = false
    }

    private let connections = Mutex(Connections())

    /// - Parameter masksColumns: give every connection a ``ColumnMaskAuthorizer``; reads then
    ///   name their mask (``read(_:masking:)``) and never fall back to another connection.
    init(path: String, configuration: Configuration, capacity: Int, masksColumns: Bool = false) {
        self.path = path
        self.configuration = configuration
        self.capacity = max(1, capacity)
        self.masksColumns = masksColumns
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
        return try await connection.queue.read(body)
    }

    /// Runs `body` in a read-only transaction on an idle connection (opened if needed), with the
    /// columns of the mask `masking` returns read as NULL. There is no fallback: a read that
    /// cannot have its mask does not run.
    ///
    /// - Throws: the error of `masking` or `body`, or the connection's when none can open.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, masking: @escaping @Sendable (Database) throws -> ColumnReadMask
    ) async throws -> T {
        let connection = try checkOut()
        defer { connections.withLock { $0.idle.append(connection) } }
        guard let authorizer = connection.authorizer else {
            throw SwiftDBAIError.cannotOpen(path: path, reason: "a reading connection has no column mask")
        }
        return try await connection.queue.read { db in
            try authorizer.withMask(try masking(db)) { try body(db) }
        }
    }

    /// Interrupts the statements running on every connection of the pool.
    func interrupt() {
        for connection in connections.withLock({ $0.all }) { connection.queue.interrupt() }
    }

    /// Closes the idle connections; later reads go to the fallback (which fails once closed too).
    func close() {
        let idle = connections.withLock { state in
            defer { state.idle = []; state.closed = true }
            return state.idle
        }
        for connection in idle { try? connection.queue.close() }
    }

    private struct Closed: Error {}

    private func checkOut() throws -> Connection {
        let (idle, closed) = connections.withLock { ($0.idle.popLast(), $0.closed) }
        if closed { throw Closed() }
        if let idle { return idle }
        var configuration = configuration
        let authorizer = masksColumns ? ColumnMaskAuthorizer() : nil
        if let authorizer {
            // After GRDB's own set-up, which installs GRDB's authorizer: this one replaces it.
            configuration.prepareDatabase { db in
                guard let handle = db.sqliteConnection else { return }
                authorizer.install(on: handle)
            }
        }
        let connection = Connection(queue: try DatabaseQueue(path: path, configuration: configuration), authorizer: authorizer)
        connections.withLock { $0.all.append(connection) }
        return connection
    }
}
