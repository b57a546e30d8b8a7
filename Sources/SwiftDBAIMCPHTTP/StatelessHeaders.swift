import Foundation
import HTTPTypes
import MCP
import SwiftDBAIMCPKernel

/// The headers a 2026-07-28 POST must carry, checked against its body: `MCP-Protocol-Version`
/// (the `_meta` version), `Mcp-Method` (the method) and, for `tools/call`, `prompts/get` and
/// `resources/read`, `Mcp-Name` (`params.name` or `params.uri`). A value may come as
/// `=?base64?…?=` (RFC 2047 style), decoded before it is compared.
enum StatelessHeaders {
    /// The methods whose `Mcp-Name` is required, and the param it names.
    static let namedParams = ["tools/call": "name", "prompts/get": "name", "resources/read": "uri"]

    /// The mismatch of a request's headers with its body (-32020), nil when they agree.
    /// A field repeated is a mismatch too: a gateway routing on the header may read another of
    /// its values than the first.
    static func mismatch(_ request: HTTPExchangeRequest, method: String, params: [String: Value], version: String) -> ProtocolError? {
        if let problem = check("MCP-Protocol-Version", request, .mcpProtocolVersion, equals: version) { return problem }
        if let problem = check("Mcp-Method", request, .mcpMethod, equals: method) { return problem }
        if let param = namedParams[method], let body = params[param]?.stringValue {
            if let problem = check("Mcp-Name", request, .mcpName, equals: body) { return problem }
        }
        return nil
    }

    private static func check(_ name: String, _ request: HTTPExchangeRequest, _ field: HTTPField.Name, equals body: String) -> ProtocolError? {
        let values = request.head.headerFields[fields: field]
        guard values.count <= 1 else {
            return .headerMismatch("the \(name) header appears \(values.count) times; send it once.")
        }
        guard let header = values.first?.value else {
            return .headerMismatch("the \(name) header is required in a 2026-07-28 request; send \(Echo.clipped(body)).")
        }
        guard let value = decoded(header) else {
            return .headerMismatch("the \(name) header value is not valid (=?base64?…?= with bad base64).")
        }
        guard value == body else {
            return .headerMismatch("\(name) header value '\(Echo.clipped(value))' does not match body value '\(Echo.clipped(body))'.")
        }
        return nil
    }

    /// A header value, decoded from `=?base64?…?=` when it is written so.
    static func decoded(_ header: String) -> String? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("=?base64?"), trimmed.hasSuffix("?="), trimmed.count >= 11 else { return trimmed }
        let encoded = trimmed.dropFirst(9).dropLast(2)
        guard let data = Data(base64Encoded: String(encoded)) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
