import Foundation
import GRDB
import SwiftDBAIPrimitives

/// The connection an executor writes on (and reads on when it has no reader pool): open from
/// the start, or opened at its first use.
///
/// SQLite parses the whole schema as a connection opens, which takes milliseconds on a file of
/// a thousand tables; a server that only reads may never need this connection at all (its
/// reads run on the ``ReaderPool``), so it is opened only when something uses it.
final class WriterConnection: Sendable {
    /// The path of the database file.
    let path: String
    private enum State {
        case waiting(@Sendable () throws(SwiftDBAIError) -> DatabaseQueue)
        case open(DatabaseQueue)
        case closed
    }

    private let state: Mutex<State>
    /// Held while the connection opens, so that it opens once (the state's lock is never held
    /// while SQLite reads the file).
    private let opening = NSLock()

    /// A connection that is already open.
    init(_ queue: DatabaseQueue) {
        path = queue.path
        state = Mutex(.open(queue))
    }

    /// A connection that `open` opens at its first use. A failed opening is tried again at the
    /// next use.
    init(path: String, open: @escaping @Sendable () throws(SwiftDBAIError) -> DatabaseQueue) {
        self.path = path
        state = Mutex(.waiting(open))
    }

    /// The connection, opened now if it was not.
    ///
    /// - Throws: ``SwiftDBAIError``: the opening's error, or `cannotOpen` once closed.
    func queue() throws(SwiftDBAIError) -> DatabaseQueue {
        if case .open(let queue) = state.withLock({ $0 }) { return queue }
        opening.lock()
        defer { opening.unlock() }
        switch state.withLock({ $0 }) {
        case .open(let queue):
            return queue
        case .closed:
            throw .cannotOpen(path: path, reason: "the executor was closed")
        case .waiting(let open):
            let queue = try open()
            state.withLock { $0 = .open(queue) }
            return queue
        }
    }

    /// The connection if it is open, without opening it.
    var ifOpen: DatabaseQueue? {
        if case .open(let queue) = state.withLock({ $0 }) { queue } else { nil }
    }

    /// Closes the connection if it is open; it never opens afterwards.
    func close() {
        opening.lock()
        defer { opening.unlock() }
        let queue = state.withLock { state -> DatabaseQueue? in
            defer { state = .closed }
            if case .open(let queue) = state { return queue }
            return nil
        }
        try? queue?.close()
    }
}
