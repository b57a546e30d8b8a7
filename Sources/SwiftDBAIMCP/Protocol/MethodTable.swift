import MCP
import SwiftDBAI
import SwiftDBAIConcurrency

/// The methods a server answers: for each, one declaration gives its name, the params it takes
/// (decoded and checked once, before the handler runs), the eras it is served in, how it takes
/// its place in the order of requests, and its handler. ``MessageDispatcher`` does everything
/// else.
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

    /// Adds (or replaces) a method whose handler reads the request's params itself.
    mutating func add(
        _ name: String, eras: Set<ClientFacts.Era> = [.handshake, .stateless], ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping Handler
    ) {
        methods[name] = Method(eras: eras, ordering: ordering, handle: handle)
    }

    /// Adds (or replaces) a method whose params are `Parameters`: decoded once, before the
    /// handler runs; params that do not decode are answered -32602 naming the field.
    mutating func add<Parameters: RequestParameters>(
        _ name: String, taking _: Parameters.Type, eras: Set<ClientFacts.Era> = [.handshake, .stateless],
        ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping @Sendable (Parameters, RequestContext) async throws -> Value
    ) {
        add(name, eras: eras, ordering: ordering) { context in
            try await handle(try Parameters(method: name, params: context.params), context)
        }
    }

    func method(_ name: String) -> Method? { methods[name] }
}

/// The params of a method, read from the request's params object once.
protocol RequestParameters: Sendable {
    /// The params of a `method` request.
    ///
    /// - Throws: -32602 saying which field is missing or wrong.
    init(method: String, params: [String: Value]) throws(ProtocolError)
}
