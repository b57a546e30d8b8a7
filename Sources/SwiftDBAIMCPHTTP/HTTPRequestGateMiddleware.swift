import Hummingbird

/// ``HTTPRequestGate`` in front of the MCP routes: a request it refuses gets its answer (403 or
/// 401) and goes no further. Every answer to a request from an allowed origin carries the CORS
/// fields a browser needs to read it.
struct HTTPRequestGateMiddleware: RouterMiddleware {
    typealias Context = MCPRequestContext

    let gate: HTTPRequestGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if let refusal = gate.refusal(request.head) {
            response = await refusal.response()
        } else {
            response = try await next(request, context)
        }
        response.headers.append(contentsOf: gate.originFields(request.head))
        return response
    }
}
