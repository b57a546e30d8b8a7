import Foundation
import MCP

/// A JSON-RPC error answer: its code, a message that says what to do, optional data, and the
/// HTTP status it takes over Streamable HTTP.
package struct ProtocolError: Error, Sendable {
    package let code: Int
    package let message: String
    package var data: Value?

    package static let parseErrorCode = -32700
    package static let invalidRequestCode = -32600
    package static let methodNotFoundCode = -32601
    package static let invalidParamsCode = -32602
    package static let internalErrorCode = -32603
    /// 2026-07-28: an HTTP header disagrees with the body, or a required one is missing.
    package static let headerMismatchCode = -32020
    /// 2026-07-28: the request needs a capability the client did not declare.
    package static let missingCapabilityCode = -32021
    /// 2026-07-28: the protocol version in `_meta` is not served.
    package static let unsupportedVersionCode = -32022

    package init(code: Int, message: String, data: Value? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    package static func invalidParams(_ message: String, data: Value? = nil) -> ProtocolError {
        ProtocolError(code: invalidParamsCode, message: message, data: data)
    }

    /// -32602 whose message is `Invalid params: detail`.
    package static func invalidParams(detail: String) -> ProtocolError {
        invalidParams("Invalid params: \(detail)")
    }

    /// -32603 whose message is `Internal error: detail`.
    package static func internalError(detail: String) -> ProtocolError {
        internalError("Internal error: \(detail)")
    }

    package static func invalidRequest(_ message: String) -> ProtocolError {
        ProtocolError(code: invalidRequestCode, message: message)
    }

    package static func methodNotFound(_ method: String, revision: String) -> ProtocolError {
        ProtocolError(
            code: methodNotFoundCode,
            message: "Method not found: \(Echo.clipped(method)) is not served under MCP \(revision).")
    }

    package static func internalError(_ message: String) -> ProtocolError {
        ProtocolError(code: internalErrorCode, message: message)
    }

    package static func headerMismatch(_ message: String) -> ProtocolError {
        ProtocolError(code: headerMismatchCode, message: "Header mismatch: \(message)")
    }

    /// -32022, with the versions served and the one asked for.
    package static func unsupportedVersion(_ requested: String) -> ProtocolError {
        ProtocolError(
            code: unsupportedVersionCode,
            message: "Unsupported protocol version \(Echo.clipped(requested)): this server serves "
                + "\(ProtocolRevision.stateless) per request (version in _meta) and "
                + "\(ProtocolRevision.handshake.joined(separator: ", ")) through initialize.",
            data: ["supported": .array(ProtocolRevision.supported.map(Value.string)), "requested": .string(requested)])
    }

    /// The `error` member of a response.
    package var json: Value {
        var object: [String: Value] = ["code": .int(code), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    /// The HTTP status of the answer that carries this error (2026-07-28 transport rules).
    package var httpStatus: Int {
        switch code {
        case Self.headerMismatchCode, Self.missingCapabilityCode, Self.unsupportedVersionCode: 400
        default: 200
        }
    }
}

extension ProtocolError {
    /// Any error a handler threw, as the error answer it gets.
    package static func from(_ error: any Error) -> ProtocolError {
        switch error {
        case let error as ProtocolError: error
        default: .internalError("Internal error: \(error)")
        }
    }
}
