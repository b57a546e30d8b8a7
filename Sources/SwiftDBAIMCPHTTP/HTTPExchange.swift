import Foundation
import MCP
import SwiftDBAIMCPKernel

/// One HTTP request, as the socket layer read it.
package struct HTTPExchangeRequest: Sendable {
    package var method: String
    /// The path, without the query.
    package var path: String
    package var headers: [(name: String, value: String)] {
        didSet { lowercasedNames = headers.map { HTTPText.lowercased($0.name) } }
    }
    package var body: Data
    /// The header names in ASCII lower case, for lookups without Foundation's string comparison.
    private var lowercasedNames: [String]

    package init(method: String, path: String, headers: [(name: String, value: String)], body: Data) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        lowercasedNames = headers.map { HTTPText.lowercased($0.name) }
    }

    /// The first value of a header, by case-insensitive name.
    package func header(_ name: String) -> String? {
        let wanted = HTTPText.lowercased(name)
        return lowercasedNames.firstIndex(of: wanted).map { headers[$0].value }
    }

    /// True when the `Accept` header lists the media type (or `*/*`, `type/*`, or has none).
    func accepts(_ mediaType: String) -> Bool {
        guard let accept = header("Accept") else { return true }
        let wanted = Array(mediaType.utf8)
        let range = Array(wanted.prefix { $0 != UInt8(ascii: "/") }) + Array("/*".utf8)
        for item in accept.utf8.split(separator: UInt8(ascii: ",")) {
            let type = HTTPText.lowercased(HTTPText.trimmed(item.prefix { $0 != UInt8(ascii: ";") }))
            if type == wanted || type == range || type == Array("*/*".utf8) { return true }
        }
        return false
    }
}

/// The answer to one HTTP request.
package struct HTTPReply: Sendable {
    /// What follows the head.
    package enum Body: Sendable {
        case none
        case data(Data)
        /// A request's messages: when the first is its response, it is sent alone as
        /// `application/json`; otherwise the messages go as server-sent events (`sse`), or,
        /// when the client does not accept them, only the response is sent, as JSON.
        case messages(AsyncStream<HTTPOutgoing>, sse: Bool)
        /// Server-sent events until the stream ends.
        case events(AsyncStream<HTTPOutgoing>)
    }

    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Body

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON-RPC error with no id, as the body of an HTTP error.
    static func error(
        _ status: Int, _ message: String, code: Int = IncomingMessage.invalidRequest,
        headers: [(name: String, value: String)] = [], id: String = "null"
    ) -> HTTPReply {
        HTTPReply(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: .data(IncomingMessage.errorReply(id: id, code: code, message: message)))
    }

    /// One message as a server-sent event.
    package static func event(_ data: Data) -> Data {
        var event = Data("event: message\ndata: ".utf8)
        event.append(data)
        event.append(contentsOf: [0x0A, 0x0A])
        return event
    }
}
/// ASCII text helpers for header values: HTTP's tokens are ASCII, and Foundation's case-insensitive
/// comparison, trimming and searching, or even Swift's grapheme-aware `Character`s, cost more than
/// the rest of a request.
enum HTTPText {
    /// The text with ASCII letters in lower case.
    static func lowercased(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: isUppercase) else { return String(text) }
        return String(decoding: lowercased(text.utf8), as: UTF8.self)
    }

    /// The bytes with ASCII letters in lower case.
    static func lowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { isUppercase($0) ? $0 + 0x20 : $0 }
    }

    /// The text without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        Substring(trimmed(text.utf8))
    }

    /// The bytes without leading and trailing spaces and tabs.
    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte)
    }
}
