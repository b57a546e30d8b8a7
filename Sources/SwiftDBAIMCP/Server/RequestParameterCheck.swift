import Foundation
import MCP
import SwiftDBAIMCPKernel

/// Decodes request params into Decodable types the way JSON-RPC asks: Invalid params
/// (`-32602`) with a message that says which field is missing or wrong, never an internal error.
enum RequestParameterCheck {
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
