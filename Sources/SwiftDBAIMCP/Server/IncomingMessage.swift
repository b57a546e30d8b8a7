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
enum IncomingMessage {
    /// A request with a valid id.
    case request(id: ID, method: String, message: [String: Value])
    /// A valid notification: never answered.
    case notification(method: String, message: [String: Value])
    /// A response (result or error) to one of the server's own requests.
    case response(id: ID)
    /// Not valid: send `reply` (nil when there is nobody to answer), and log `reason`.
    case invalid(reply: Data?, reason: String)

    static let parseError = -32700
    static let invalidRequest = -32600
    static let invalidParams = -32602

    /// Classifies one line.
    init(_ data: Data) {
        let parsed: (value: Value, rawID: String?)
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
            self = Self.batch(elements)
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
            case .valid(.string(let string)):
                var bytes: [UInt8] = []
                JSONMessageWriter.writeString(string, into: &bytes)
                return String(decoding: bytes, as: UTF8.self)
            case .valid(.number(let number)): return String(number)
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
        guard let methodValue = object["method"] else {
            let isResponse = object["result"] != nil || object["error"] != nil
            switch (isResponse, id) {
            case (true, .valid(let id)):
                return .response(id: id)
            case (true, _):
                // A response nobody can match: nothing to answer.
                return .invalid(reply: nil, reason: "a response without a usable id")
            case (false, _):
                return invalid("Invalid Request: a request needs \"method\" (a string).")
            }
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

    private static func batch(_ elements: [Value]) -> IncomingMessage {
        guard !elements.isEmpty else {
            return .invalid(
                reply: errorReply(id: "null", code: invalidRequest, message: "Invalid Request: an empty batch."),
                reason: "empty batch")
        }
        let message = "Invalid Request: batches are not supported (MCP 2025-06-18 removed them); send one message per line."
        var replies: [Data] = []
        for element in elements {
            guard case .object(let object) = element else {
                replies.append(errorReply(id: "null", code: invalidRequest, message: message))
                continue
            }
            // Notifications and responses inside a batch get no answer.
            guard object["method"] != nil, object["id"] != nil else { continue }
            replies.append(errorReply(id: idField(object["id"], rawID: nil).replyText, code: invalidRequest, message: message))
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
    static func errorReply(id: String, code: Int, message: String) -> Data {
        var bytes = Array("{\"error\":".utf8)
        JSONMessageWriter.write(.object(["code": .int(code), "message": .string(message)]), into: &bytes)
        bytes.append(contentsOf: ",\"id\":\(id),\"jsonrpc\":\"2.0\"}".utf8)
        return Data(bytes)
    }
}
