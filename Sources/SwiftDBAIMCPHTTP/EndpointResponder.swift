import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SwiftDBAIMCP

/// The Hummingbird responder of `/mcp` and everything else: the request goes to
/// ``StreamableHTTPEndpoint`` as an ``HTTPExchangeRequest``; its ``HTTPReply`` comes back as a
/// response — JSON, or server-sent events when the server says something before the response.
/// A body larger than the limit is refused (413) without being read when its length is
/// announced, and as soon as it passes the limit otherwise; the connection is then closed, so
/// that the rest of the body is not read.
struct EndpointResponder: HTTPResponder {
    typealias Context = ConnectionRequestContext

    let endpoint: StreamableHTTPEndpoint
    let maxRequestBytes: Int

    func respond(to request: Request, context: Context) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxRequestBytes {
            return tooLarge(closing: context.channel)
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maxRequestBytes)
        } catch is NIOTooManyBytesError {
            return tooLarge(closing: context.channel)
        }
        // HTTP/1.1's Host is the request's authority in HTTPTypes, not one of its fields.
        var headers = request.head.authority.map { [(name: "Host", value: $0)] } ?? []
        headers += request.headers.map { (name: $0.name.rawName, value: $0.value) }
        let reply = await endpoint.respond(to: HTTPExchangeRequest(
            method: request.method.rawValue, path: request.uri.path, headers: headers,
            body: Data(body.readableBytesView)))
        return await Self.response(reply)
    }

    /// 413, then the connection closed: its output once the answer is written (a client still
    /// sending can read it, where a full close would reset the connection under it), the whole
    /// of it a second later (the rest of the body is not read beyond that).
    private func tooLarge(closing channel: any Channel) -> Response {
        let text = #"{"error":{"code":-32600,"message":"Payload Too Large: a request body may have at most \#(maxRequestBytes) bytes (--max-request-bytes)."},"id":null,"jsonrpc":"2.0"}"#
        let body = ByteBuffer(string: text)
        return Response(
            status: .contentTooLarge, headers: [.contentType: "application/json", .connection: "close"],
            body: ResponseBody(contentLength: body.readableBytes) { writer in
                try await writer.write(body)
                try await writer.finish(nil)
                channel.close(mode: .output, promise: nil)
                channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            })
    }

    // MARK: - Replies

    private static func whole(_ status: Int, _ headers: HTTPFields, _ data: Data?) -> Response {
        Response(status: .init(code: status), headers: headers, body: data.map { ResponseBody(byteBuffer: ByteBuffer(bytes: $0)) } ?? ResponseBody())
    }

    /// The response of a reply; a stream of messages is awaited up to its first message, which
    /// decides between plain JSON (the response alone, or a client that takes no events) and
    /// server-sent events.
    private static func response(_ reply: HTTPReply) async -> Response {
        switch reply.body {
        case .none:
            return whole(reply.status, fields(reply.headers), nil)
        case .data(let data):
            return whole(reply.status, fields(reply.headers), data)
        case .messages(let stream, let sse):
            var headers = fields(reply.headers)
            var iterator = stream.makeAsyncIterator()
            var first: HTTPOutgoing?
            while let message = await iterator.next() {
                if message.isFinal || sse {
                    first = message
                    break
                }
                // A client that takes no events gets only the response.
            }
            guard let first else {
                // Cancelled, or the session ended: no response will come.
                return eventStream(status: reply.status, headers: headers, first: nil, rest: nil)
            }
            if first.isFinal {
                headers[.contentType] = "application/json"
                return whole(reply.status, headers, first.data)
            }
            return eventStream(status: reply.status, headers: headers, first: first, rest: stream)
        case .events(let stream):
            return eventStream(status: reply.status, headers: fields(reply.headers), first: nil, rest: stream)
        }
    }

    /// Server-sent events: `first`, then the rest of the stream until its final message.
    private static func eventStream(
        status: Int, headers: HTTPFields, first: HTTPOutgoing?, rest: AsyncStream<HTTPOutgoing>?
    ) -> Response {
        var headers = headers
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache, no-transform"
        if let buffering = HTTPField.Name("X-Accel-Buffering") { headers[buffering] = "no" }
        return Response(status: .init(code: status), headers: headers, body: ResponseBody { writer in
            if let first {
                try await writer.write(ByteBuffer(bytes: HTTPReply.event(first.data)))
                if first.isFinal {
                    try await writer.finish(nil)
                    return
                }
            }
            if let rest {
                for await message in rest {
                    try await writer.write(ByteBuffer(bytes: HTTPReply.event(message.data)))
                    if message.isFinal { break }
                }
            }
            try await writer.finish(nil)
        })
    }

    private static func fields(_ headers: [(name: String, value: String)]) -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        return fields
    }
}

/// Hummingbird's basic request context, keeping the connection's channel (to close it after a
/// refused body).
struct ConnectionRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
