import MCP
import SwiftDBAIPrimitives

/// The methods a server answers: for each, one declaration gives its name, the params it takes
/// (decoded and checked once, before the handler runs), the eras it is served in, how it takes
/// its place in the order of requests, and its handler. ``MessageDispatcher`` does everything
/// else.
package struct MethodTable: Sendable {
    /// Answers one request: its result (without `resultType`, which the dispatcher adds), or
    /// throws ``ProtocolError``; `CancellationError` sends no response.
    package typealias Handler = @Sendable (ServedRequest) async throws -> Value

    /// How a method's requests are ordered.
    package enum Ordering: Sendable {
        /// Answered as it arrives, before any message after it is read (`initialize`,
        /// `server/discover`): quick, and never touches a database.
        case onArrival
        /// Takes a turn: reads share theirs, writes run alone, in arrival order.
        case turn(@Sendable ([String: Value]) -> TurnQueue.Kind)
    }

    /// One method's declaration.
    package struct Method: Sendable {
        /// The eras the method is served in; a request of another era is -32601.
        package let eras: Set<ClientFacts.Era>
        /// How its requests take their place in the order of requests.
        package let ordering: Ordering
        /// Its handler.
        package let handle: Handler
    }

    /// The methods, by name.
    package private(set) var methods: [String: Method] = [:]

    package init() {}

    /// Adds (or replaces) a method whose handler reads the request's params itself.
    package mutating func add(
        _ name: String, eras: Set<ClientFacts.Era> = [.handshake, .stateless], ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping Handler
    ) {
        methods[name] = Method(eras: eras, ordering: ordering, handle: handle)
    }

    /// Adds (or replaces) a method whose params are `Parameters`: decoded once, before the
    /// handler runs; params that do not decode are answered -32602 naming the field.
    package mutating func add<Parameters: RequestParameters>(
        _ name: String, taking _: Parameters.Type, eras: Set<ClientFacts.Era> = [.handshake, .stateless],
        ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping @Sendable (Parameters, ServedRequest) async throws -> Value
    ) {
        add(name, eras: eras, ordering: ordering) { context in
            try await handle(try Parameters(method: name, params: context.params), context)
        }
    }

    /// The method of that name; nil for one the server does not answer.
    package func method(_ name: String) -> Method? { methods[name] }
}

/// The params of a method, read from the request's params object once.
package protocol RequestParameters: Sendable {
    /// The params of a `method` request.
    ///
    /// - Throws: -32602 saying which field is missing or wrong.
    init(method: String, params: [String: Value]) throws(ProtocolError)
}
