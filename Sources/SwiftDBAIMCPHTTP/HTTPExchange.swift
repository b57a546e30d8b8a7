import Foundation
import HTTPTypes
import SwiftDBAIMCPKernel

/// One HTTP request to the MCP endpoint: its head as the HTTP server read it, and its body.
package struct HTTPExchangeRequest: Sendable {
    package var head: HTTPRequest
    package var body: Data
    /// Who sent it, as a verified OAuth access token says; nil without `--oauth-issuer` (or
    /// for the static token).
    package var caller: CallerIdentity?

    package init(head: HTTPRequest, body: Data = Data(), caller: CallerIdentity? = nil) {
        self.head = head
        self.body = body
        self.caller = caller
    }

    /// The value of the first header field of the name.
    package func header(_ name: HTTPField.Name) -> String? {
        head.headerFields.first(name)
    }

    /// True when the `Accept` fields list the media type (or `*/*`, `type/*`, or have none).
    func accepts(_ mediaType: String) -> Bool {
        guard let accept = head.headerFields[.accept] else { return true }
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

    package var status: HTTPResponse.Status
    package var headers: HTTPFields
    package var body: Body

    package init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: Body = .none) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON-RPC error with no id, as the body of an HTTP error.
    static func error(
        _ status: HTTPResponse.Status, _ message: String, code: Int = IncomingMessage.invalidRequest,
        headers: HTTPFields = [:], id: String = "null"
    ) -> HTTPReply {
        var fields = headers
        fields[.contentType] = "application/json"
        return HTTPReply(status: status, headers: fields, body: .data(IncomingMessage.errorReply(id: id, code: code, message: message)))
    }

    /// One message as a server-sent event.
    package static func event(_ data: Data) -> Data {
        var event = Data("event: message\ndata: ".utf8)
        event.append(data)
        event.append(contentsOf: [0x0A, 0x0A])
        return event
    }
}

extension HTTPFields {
    /// The value of the first field of the name (a repeated `Authorization`, `Origin` or
    /// `Mcp-Session-Id` is read as its first, not as the values joined).
    func first(_ name: HTTPField.Name) -> String? {
        self[fields: name].first?.value
    }
}
