import Foundation
import MCP
import SwiftDBAIMCPKernel

/// Where the MCP SDK's types meet the server: the params of the methods the SDK describes are
/// decoded into its types here, once, and its results encoded back into JSON values.

/// The params of an SDK method, decoded once into the SDK's type.
struct SDKParameters<M: MCP.Method>: RequestParameters {
    /// The params, as the SDK's type.
    let value: M.Parameters

    init(method: String, params: [String: Value]) throws(ProtocolError) {
        value = try RequestParameterCheck.decode(M.Parameters.self, method: method, params: params)
    }
}

extension MethodTable {
    /// Adds (or replaces) the SDK method `M` under its name, its params decoded once into
    /// `M.Parameters`.
    mutating func add<M: MCP.Method>(
        _: M.Type, eras: Set<ClientFacts.Era> = [.handshake, .stateless], ordering: Ordering = .turn({ _ in .shared }),
        _ handle: @escaping @Sendable (M.Parameters, ServedRequest) async throws -> Value
    ) {
        add(M.name, taking: SDKParameters<M>.self, eras: eras, ordering: ordering) { parameters, context in
            try await handle(parameters.value, context)
        }
    }
}

extension DBAIServer {
    /// A result of the SDK's types as JSON.
    static func json<T: Encodable>(_ value: T) throws -> Value {
        try JSONMessageParser.parse(JSONEncoder().encode(value))
    }
}
