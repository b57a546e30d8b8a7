import Foundation
import MCP

/// Checks request params against the SDK's parameter types, the way JSON-RPC asks: Invalid
/// params (`-32602`) with a message that says which field is missing or wrong, never an
/// internal error. ``problem(method:params:)`` checks the methods whose handlers read their
/// params field by field; ``decode(_:method:params:)`` decodes, once, for those that use the type.
enum RequestParameterCheck {
    /// The requests whose params are checked, by method.
    private static let decoders: [String: @Sendable (Data) throws -> Void] = [
        Initialize.name: { _ = try JSONDecoder().decode(Initialize.Parameters.self, from: $0) },
        ReadResource.name: { _ = try JSONDecoder().decode(ReadResource.Parameters.self, from: $0) },
        SetLoggingLevel.name: { _ = try JSONDecoder().decode(SetLoggingLevel.Parameters.self, from: $0) },
        ListTools.name: { _ = try JSONDecoder().decode(ListTools.Parameters.self, from: $0) },
        ListResources.name: { _ = try JSONDecoder().decode(ListResources.Parameters.self, from: $0) },
        ListResourceTemplates.name: { _ = try JSONDecoder().decode(ListResourceTemplates.Parameters.self, from: $0) },
        ListPrompts.name: { _ = try JSONDecoder().decode(ListPrompts.Parameters.self, from: $0) },
    ]

    /// Why the params of `method` are invalid, or nil when they are fine (or not checked).
    static func problem(method: String, params: Value?) -> String? {
        guard let decode = decoders[method] else { return nil }
        do {
            try decode(JSONMessageWriter.data(params ?? .object([:])))
            return nil
        } catch {
            return message(method: method, error)
        }
    }

    /// The params of `method` as the SDK's type, decoded once.
    ///
    /// - Throws: -32602 saying what is wrong.
    static func decode<Parameters: Decodable>(_ type: Parameters.Type, method: String, params: [String: Value]) throws(ProtocolError) -> Parameters {
        do {
            return try JSONDecoder().decode(type, from: JSONMessageWriter.data(.object(params)))
        } catch {
            throw .invalidParams(message(method: method, error))
        }
    }

    private static func message(method: String, _ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "Invalid params for \(method)." }
        return "Invalid params for \(method): \(describe(error))."
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return names.isEmpty ? "params" : names.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "\(parent == "params" ? "" : parent + ".")\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return "\(path(context)) has an invalid value"
        @unknown default:
            return "they do not match the method"
        }
    }
}
