import Hummingbird
import NIOCore

/// Reads a request's body up to `--max-request-bytes` before any route sees it, and refuses a
/// larger one with 413: without reading it when its length is announced, as soon as it passes
/// the limit otherwise. The connection is then closed, so that the rest of the body is not read.
struct RequestBodyLimitMiddleware: RouterMiddleware {
    typealias Context = MCPRequestContext

    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            return tooLarge(closing: context.channel)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch is NIOTooManyBytesError {
            return tooLarge(closing: context.channel)
        }
        return try await next(request, context)
    }

    /// 413, then the connection closed: its output once the answer is written (a client still
    /// sending can read it, where a full close would reset the connection under it), the whole
    /// of it a second later (the rest of the body is not read beyond that).
    private func tooLarge(closing channel: any Channel) -> Response {
        let text = #"{"error":{"code":-32600,"message":"Payload Too Large: a request body may have at most \#(maxBytes) bytes (--max-request-bytes)."},"id":null,"jsonrpc":"2.0"}"#
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
}
