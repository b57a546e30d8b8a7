import Hummingbird

/// The answer to what no route serves, as a JSON-RPC error: a method `/mcp` does not serve gets
/// 405 naming the ones it does (once the gate let the request through, as for any method of
/// `/mcp`); any other path gets 404.
///
/// Added to the router after the routes, so that it wraps only the router's not-found answer.
struct UnroutedRequestMiddleware: RouterMiddleware {
    typealias Context = MCPRequestContext

    let gate: HTTPRequestGateMiddleware
    let endpoint: StreamableHTTPEndpoint

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path == StreamableHTTPEndpoint.path else { return await Self.notFound(request, gate: gate.gate) }
        return try await gate.handle(request, context: context) { _, _ in await endpoint.methodNotAllowed().response() }
    }

    /// 404, with the CORS fields of an allowed origin.
    static func notFound(_ request: Request, gate: HTTPRequestGate) async -> Response {
        var response = await HTTPReply.error(.notFound, "Not Found: MCP is served at \(StreamableHTTPEndpoint.path).").response()
        response.headers.append(contentsOf: gate.originFields(request.head))
        return response
    }
}
