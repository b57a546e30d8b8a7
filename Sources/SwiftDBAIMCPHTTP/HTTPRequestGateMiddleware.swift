import Hummingbird

/// ``HTTPRequestGate`` in front of the MCP routes: a request it refuses gets its answer (403, 401
/// or 503) and goes no further; one it admits carries its OAuth caller in the context. Every
/// answer to a request from an allowed origin carries the CORS fields a browser needs to read it.
struct HTTPRequestGateMiddleware: RouterMiddleware {
    typealias Context = MCPRequestContext

    let gate: HTTPRequestGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        switch await gate.admit(request.head) {
        case .failure(let refused):
            response = await refused.reply.response()
        case .success(let caller):
            var context = context
            context.caller = caller
            response = try await next(request, context)
        }
        response.headers.append(contentsOf: gate.originFields(request.head))
        return response
    }
}
