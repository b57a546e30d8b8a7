import Foundation
import MCP
import SwiftDBAIMCPKernel

/// Where the MCP SDK's types meet the server: the params of the methods the SDK describes are
/// decoded into its types here, once, and its results encoded back into JSON values.

extension MethodTable {
    /// Adds (or replaces) the SDK method `M` under its name, its params decoded once into
    /// `M.Parameters` before the handler runs (-32602 naming the field).
    ///
    /// The params are decoded in the handler's closure rather than through a generic
    /// ``RequestParameters`` type: such a type's metadata, instantiated for each method when the
    /// table is built, costs a search of the binary's protocol conformances at start-up.
    mutating func add<M: MCP.Method>(
        _: M.Type, eras: Set<ClientFacts.Era> = [.handshake, .stateless], ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping @Sendable (M.Parameters, ServedRequest) async throws -> Value
    ) {
        add(M.name, eras: eras, ordering: ordering) { request in
            try await handle(try RequestParameterCheck.decode(M.Parameters.self, method: M.name, params: request.params), request)
        }
    }
}

extension DBAIServer {
    /// A result of the SDK's types as JSON.
    static func json<T: Encodable>(_ value: T) throws -> Value {
        try JSONMessageParser.parse(JSONEncoder().encode(value))
    }
}
