import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SwiftDBAIMCP

/// Reads the requests of one HTTP/1.1 connection, one after another, and writes their replies:
/// bodies larger than the limit are refused (413) before they are read, and the connection
/// is closed after a reply when the client asked for it (or after a refusal of its body).
struct ConnectionServer: Sendable {
    typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    typealias Outbound = NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>

    let endpoint: StreamableHTTPEndpoint
    let logger: Logger
    let maxRequestBytes: Int

    func serve(_ connection: Connection) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                var body = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let received):
                        head = received
                        body.clear()
                        if let length = received.headers.first(name: "Content-Length").flatMap(Int.init), length > maxRequestBytes {
                            try await write(tooLarge, to: outbound, version: received.version, keepAlive: false)
                            return
                        }
                    case .body(var chunk):
                        guard body.readableBytes + chunk.readableBytes <= maxRequestBytes else {
                            try await write(tooLarge, to: outbound, version: head?.version ?? .http1_1, keepAlive: false)
                            return
                        }
                        body.writeBuffer(&chunk)
                    case .end:
                        guard let request = head else { continue }
                        head = nil
                        let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                        let reply = await endpoint.respond(to: HTTPExchangeRequest(
                            method: request.method.rawValue, path: path,
                            headers: request.headers.map { ($0.name, $0.value) },
                            body: Data(body.readableBytesView)))
                        try await write(reply, to: outbound, version: request.version, keepAlive: request.isKeepAlive)
                        guard request.isKeepAlive else { return }
                    }
                }
            }
        } catch {
            logger.debug("An HTTP connection ended: \(error)")
        }
    }

    private var tooLarge: HTTPReply {
        HTTPReply(
            status: 413, headers: [("Content-Type", "application/json")],
            body: .data(Data(#"{"error":{"code":-32600,"message":"Payload Too Large: a request body may have at most \#(maxRequestBytes) bytes (--max-request-bytes)."},"id":null,"jsonrpc":"2.0"}"#.utf8)))
    }

    // MARK: - Writing

    private func write(_ reply: HTTPReply, to outbound: Outbound, version: HTTPVersion, keepAlive: Bool) async throws {
        var headers = HTTPHeaders(reply.headers.map { ($0.name, $0.value) })
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        switch reply.body {
        case .none:
            try await writeWhole(status: reply.status, headers: headers, body: nil, to: outbound, version: version)
        case .data(let data):
            try await writeWhole(status: reply.status, headers: headers, body: data, to: outbound, version: version)
        case .messages(let stream, let sse):
            var started = false
            for await message in stream {
                if !started, message.isFinal || !sse {
                    // The response alone (or, to a client that takes no events, only it): plain JSON.
                    guard message.isFinal else { continue }
                    headers.replaceOrAdd(name: "Content-Type", value: "application/json")
                    try await writeWhole(status: reply.status, headers: headers, body: message.data, to: outbound, version: version)
                    return
                }
                if !started {
                    try await writeEventHead(status: reply.status, headers: headers, to: outbound, version: version)
                    started = true
                }
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: HTTPReply.event(message.data)))))
                if message.isFinal { break }
            }
            if !started {
                // Cancelled, or the session ended: no response will come.
                try await writeEventHead(status: reply.status, headers: headers, to: outbound, version: version)
            }
            try await outbound.write(.end(nil))
        case .events(let stream):
            try await writeEventHead(status: reply.status, headers: headers, to: outbound, version: version)
            for await message in stream {
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: HTTPReply.event(message.data)))))
            }
            try await outbound.write(.end(nil))
        }
    }

    private func writeWhole(status: Int, headers: HTTPHeaders, body: Data?, to outbound: Outbound, version: HTTPVersion) async throws {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Length", value: String(body?.count ?? 0))
        // One write (one flush, usually one packet) for the head, the body and the end.
        var parts: [HTTPServerResponsePart] = [
            .head(HTTPResponseHead(version: version, status: .init(statusCode: status), headers: headers)),
        ]
        if let body, !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        parts.append(.end(nil))
        try await outbound.write(contentsOf: parts)
    }

    private func writeEventHead(status: Int, headers: HTTPHeaders, to outbound: Outbound, version: HTTPVersion) async throws {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "text/event-stream")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-cache, no-transform")
        try await outbound.write(.head(HTTPResponseHead(version: version, status: .init(statusCode: status), headers: headers)))
    }
}
