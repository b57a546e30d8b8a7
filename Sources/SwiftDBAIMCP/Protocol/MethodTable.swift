import MCP
import SwiftDBAI

/// The methods a server answers: for each, the eras it is served in, how it takes its place
/// in the order of requests, and its handler. ``MessageDispatcher`` does everything else.
struct MethodTable: Sendable {
    /// Answers one request: its result (without `resultType`, which the dispatcher adds), or
    /// throws ``ProtocolError``; `CancellationError` sends no response.
    typealias Handler = @Sendable (RequestContext) async throws -> Value

    /// How a method's requests are ordered.
    enum Ordering: Sendable {
        /// Answered as it arrives, before any message after it is read (`initialize`,
        /// `server/discover`): quick, and never touches a database.
        case onArrival
        /// Takes a turn: reads share theirs, writes run alone, in arrival order.
        case turn(@Sendable ([String: Value]) -> TurnQueue.Kind)
    }

    struct Method: Sendable {
        let eras: Set<ClientFacts.Era>
        let ordering: Ordering
        let handle: Handler
    }

    private(set) var methods: [String: Method] = [:]

    /// Adds (or replaces) a method.
    mutating func add(
        _ name: String, eras: Set<ClientFacts.Era> = [.handshake, .stateless], ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping Handler
    ) {
        methods[name] = Method(eras: eras, ordering: ordering, handle: handle)
    }

    func method(_ name: String) -> Method? { methods[name] }
}
