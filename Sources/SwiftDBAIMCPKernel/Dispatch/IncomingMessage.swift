import Foundation
import MCP

/// What one incoming line is, by the rules of JSON-RPC 2.0 (§4, §5) and MCP, and the error
/// response it needs when it is not valid.
///
/// The SDK answers malformed input loosely (a parse error with a random id, no answer at all to
/// a request with a valid id and a broken body, `""` for a null id), so every line is checked
/// here before the SDK or a tool sees it:
///
/// - a line that is not JSON gets a parse error (`-32700`) with id `null`;
/// - anything that is not a valid request, notification or response gets Invalid Request
///   (`-32600`), with the request's id when it can be read — echoed exactly as written, so `1.5`
///   or `1e400` come back as sent — and `null` otherwise;
/// - MCP's own rules: an id is a string or an integer (never `null`), params are an object
///   (`-32602` for an array), and batches are not supported (MCP 2025-06-18 removed them): each
///   request of a batch gets an Invalid Request error, in one array;
/// - a valid notification (no id) is never answered.
package enum IncomingMessage {
    /// A request with a valid id.
    case request(id: ID, method: String, message: [String: Value])
    /// A valid notification: never answered.
    case notification(method: String, message: [String: Value])
    /// A response (result or error) to one of the server's own requests.
    case response(id: ID, message: [String: Value])
    /// Not valid: send `reply` (nil when there is nobody to answer), and log `reason`.
    case invalid(reply: Data?, reason: String)

    package static let parseError = ProtocolError.parseErrorCode
    package static let invalidRequest = ProtocolError.invalidRequestCode
    package static let invalidParams = ProtocolError.invalidParamsCode

    /// Classifies one line.
    package init(_ data: Data) {
        let parsed: JSONMessageParser.Message
        do {
            parsed = try JSONMessageParser.parseMessage(data)
        } catch {
            self = .invalid(
                reply: Self.errorReply(id: "null", code: Self.parseError, message: "Parse error: \(error.description)."),
                reason: "not JSON: \(error.description)")
            return
        }
        switch parsed.value {
        case .object(let object):
            self = Self.classify(object, rawID: parsed.rawID)
        case .array(let elements):
            self = Self.batch(elements, rawIDs: parsed.rawElementIDs)
        default:
            self = .invalid(
                reply: Self.errorReply(id: "null", code: Self.invalidRequest, message: "Invalid Request: a message is a JSON object."),
                reason: "not an object")
        }
    }

    // MARK: - Rules

    /// The id of a message, as far as it can be read.
    private enum IDField {
        case absent
        case valid(ID)
        /// A number that is not an integer MCP accepts: echoed as written.
        case invalidNumber(String)
        /// `null`, or a value that is not an id at all (answered with `null`).
        case unusable

        /// The id to put in an error response.
        var replyText: String {
            switch self {
            case .valid(let id): return id.replyText
            case .invalidNumber(let text): return text
            case .absent, .unusable: return "null"
            }
        }
    }

    private static func idField(_ value: Value?, rawID: String?) -> IDField {
        switch value {
        case nil: return .absent
        case .string(let string)?: return .valid(.string(string))
        case .int(let integer)?: return .valid(.number(integer))
        case .double(let double)?: return .invalidNumber(rawID ?? (double.isFinite ? "\(double)" : "null"))
        default: return .unusable
        }
    }

    private static func classify(_ object: [String: Value], rawID: String?) -> IncomingMessage {
        let id = idField(object["id"], rawID: rawID)
        func invalid(_ message: String, code: Int = invalidRequest) -> IncomingMessage {
            .invalid(reply: errorReply(id: id.replyText, code: code, message: message), reason: message)
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return invalid("Invalid Request: \"jsonrpc\" must be \"2.0\".")
        }
        let isResponse = object["result"] != nil || object["error"] != nil
        guard let methodValue = object["method"] else {
            switch (isResponse, id) {
            case (true, .valid(let id)) where isWellFormedResponse(object):
                return .response(id: id, message: object)
            case (true, _):
                // A response nobody can match, or malformed: responses are never answered.
                return .invalid(reply: nil, reason: "a malformed response, or one without a usable id")
            case (false, _):
                return invalid("Invalid Request: a request needs \"method\" (a string).")
            }
        }
        guard !isResponse else {
            return invalid("Invalid Request: a request has no \"result\" or \"error\" member.")
        }
        guard case .string(let method) = methodValue else {
            return invalid("Invalid Request: \"method\" must be a string.")
        }
        if let params = object["params"] {
            switch params {
            case .object: break
            case .array:
                if case .absent = id { return .invalid(reply: nil, reason: "notification \(method) with params as an array") }
                return invalid("Invalid params: MCP params are an object, not an array.", code: invalidParams)
            default:
                return invalid("Invalid Request: \"params\" must be an object.")
            }
        }
        switch id {
        case .absent:
            return .notification(method: method, message: object)
        case .valid(let valid):
            return .request(id: valid, method: method, message: object)
        case .invalidNumber:
            return invalid("Invalid Request: an MCP request id is a string or an integer.")
        case .unusable:
            return invalid("Invalid Request: an MCP request id is a string or an integer, never null.")
        }
    }

    /// A response carries either `result` or an `error` object with an integer code and a
    /// string message.
    private static func isWellFormedResponse(_ object: [String: Value]) -> Bool {
        switch (object["result"], object["error"]) {
        case (_?, nil):
            return true
        case (nil, .object(let error)?):
            guard case .int? = error["code"], case .string? = error["message"] else { return false }
            return true
        default:
            return false
        }
    }

    private static func batch(_ elements: [Value], rawIDs: [Int: String]) -> IncomingMessage {
        guard !elements.isEmpty else {
            return .invalid(
                reply: errorReply(id: "null", code: invalidRequest, message: "Invalid Request: an empty batch."),
                reason: "empty batch")
        }
        let message = "Invalid Request: batches are not supported (MCP 2025-06-18 removed them); send one message per line."
        var replies: [Data] = []
        for (offset, element) in elements.enumerated() {
            guard case .object(let object) = element else {
                replies.append(errorReply(id: "null", code: invalidRequest, message: "Invalid Request: a message is a JSON object."))
                continue
            }
            switch classify(object, rawID: rawIDs[offset]) {
            case .request:
                replies.append(errorReply(
                    id: idField(object["id"], rawID: rawIDs[offset]).replyText, code: invalidRequest, message: message))
            case .invalid(let reply?, _):
                replies.append(reply)
            case .notification, .response, .invalid(nil, _):
                // Neither is ever answered.
                continue
            }
        }
        guard !replies.isEmpty else { return .invalid(reply: nil, reason: "batch of notifications") }
        var joined = Data("[".utf8)
        for (offset, reply) in replies.enumerated() {
            if offset > 0 { joined.append(UInt8(ascii: ",")) }
            joined.append(reply)
        }
        joined.append(UInt8(ascii: "]"))
        return .invalid(reply: joined, reason: "batch")
    }

    /// An error response with `id` written as given (JSON text).
    package static func errorReply(id: String, code: Int, message: String) -> Data {
        var bytes = Array("{\"error\":".utf8)
        JSONMessageWriter.write(.object(["code": .int(code), "message": .string(message)]), into: &bytes)
        bytes.append(contentsOf: ",\"id\":\(id),\"jsonrpc\":\"2.0\"}".utf8)
        return Data(bytes)
    }
}
