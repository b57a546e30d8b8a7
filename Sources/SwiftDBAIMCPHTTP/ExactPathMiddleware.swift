import Hummingbird

/// Serves `/mcp` at that path exactly: Hummingbird's router ignores empty path segments, so
/// `/mcp/` and `//mcp` reach the `/mcp` routes; they get 404 before the gate, as any path
/// other than `/mcp` does.
struct ExactPathMiddleware: RouterMiddleware {
    typealias Context = MCPRequestContext

    let gate: HTTPRequestGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path == StreamableHTTPEndpoint.path else { return await UnroutedRequestMiddleware.notFound(request, gate: gate) }
        return try await next(request, context)
    }
}
