import Foundation
import MCP

/// Checks the params of the requests the SDK answers before they reach it: the SDK reports a
/// params object it cannot decode as an internal error (`-32603`), where JSON-RPC asks for
/// Invalid params (`-32602`) with a message that says what is wrong.
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
        GetPrompt.name: { _ = try JSONDecoder().decode(GetPrompt.Parameters.self, from: $0) },
        Complete.name: { _ = try JSONDecoder().decode(Complete.Parameters.self, from: $0) },
    ]

    /// Why the params of `method` are invalid, or nil when they are fine (or not checked).
    static func problem(method: String, params: Value?) -> String? {
        guard let decode = decoders[method] else { return nil }
        do {
            try decode(JSONMessageWriter.data(params ?? .object([:])))
            return nil
        } catch let error as DecodingError {
            return "Invalid params for \(method): \(describe(error))."
        } catch {
            return "Invalid params for \(method)."
        }
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
