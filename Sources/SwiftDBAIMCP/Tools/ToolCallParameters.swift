import MCP
import SwiftDBAIMCPKernel

/// The params of `tools/call`, read straight from the request's JSON (every call takes this
/// path: no round trip through the SDK's types).
struct ToolCallParameters: RequestParameters {
    /// The tool's name, as the client called it.
    let name: String
    /// The tool's arguments; nil when the call gave none (or `null`).
    let arguments: [String: Value]?

    init(method: String, params: [String: Value]) throws(ProtocolError) {
        guard let name = params["name"]?.stringValue,
              params["arguments"].map({ $0.objectValue != nil || $0.isNull }) ?? true else {
            throw .invalidParams("Invalid params: tools/call takes params {\"name\": string, \"arguments\": object}.")
        }
        self.name = name
        arguments = params["arguments"]?.objectValue
    }
}
