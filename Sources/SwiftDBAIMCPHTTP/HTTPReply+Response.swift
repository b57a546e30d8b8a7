import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension HTTPReply {
    /// The Hummingbird response of the reply. A stream of messages is awaited up to its first
    /// message, which decides between plain JSON (the response alone, or a client that takes no
    /// events) and server-sent events; a refused request's error response gets 400.
    func response() async -> Response {
        switch body {
        case .none:
            return Self.whole(status, headers, nil)
        case .data(let data):
            return Self.whole(status, headers, data)
        case .messages(let stream, let sse):
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
                return Self.eventStream(status: status, headers: headers, first: nil, rest: nil)
            }
            if first.isFinal {
                var headers = headers
                headers[.contentType] = "application/json"
                return Self.whole(first.isRefusal ? .badRequest : status, headers, first.data)
            }
            return Self.eventStream(status: status, headers: headers, first: first, rest: stream)
        case .events(let stream):
            return Self.eventStream(status: status, headers: headers, first: nil, rest: stream)
        }
    }

    private static func whole(_ status: HTTPResponse.Status, _ headers: HTTPFields, _ data: Data?) -> Response {
        Response(status: status, headers: headers, body: data.map { ResponseBody(byteBuffer: ByteBuffer(bytes: $0)) } ?? ResponseBody())
    }

    /// Server-sent events: `first`, then the rest of the stream until its final message.
    private static func eventStream(
        status: HTTPResponse.Status, headers: HTTPFields, first: HTTPOutgoing?, rest: AsyncStream<HTTPOutgoing>?
    ) -> Response {
        var headers = headers
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache, no-transform"
        headers[.accelBuffering] = "no"
        return Response(status: status, headers: headers, body: ResponseBody { writer in
            if let first {
                try await writer.write(ByteBuffer(bytes: event(first.data)))
                if first.isFinal {
                    try await writer.finish(nil)
                    return
                }
            }
            if let rest {
                for await message in rest {
                    try await writer.write(ByteBuffer(bytes: event(message.data)))
                    if message.isFinal { break }
                }
            }
            try await writer.finish(nil)
        })
    }
}
