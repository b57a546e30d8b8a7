import Foundation
import Hummingbird

/// The routes of `dbai-mcp --http`, in the order a request meets them:
///
/// 1. ``RequestBodyLimitMiddleware``: every body read once, up to `--max-request-bytes` (413 beyond).
/// 2. `/mcp` exactly (``ExactPathMiddleware``), behind ``HTTPRequestGateMiddleware`` (Host,
///    Origin, bearer token): `POST`, `GET`, `DELETE` and the CORS preflight `OPTIONS`, each
///    answered by ``StreamableHTTPEndpoint``.
/// 3. ``UnroutedRequestMiddleware``: 405 for another method of `/mcp`, 404 elsewhere.
///
/// Routes that would take no token (OAuth metadata under `/.well-known/`, health probes) would
/// go next to the `/mcp` group, outside its gate.
enum MCPRouter {
    static func make(endpoint: StreamableHTTPEndpoint) -> Router<MCPRequestContext> {
        let options = endpoint.options
        let gate = HTTPRequestGateMiddleware(gate: HTTPRequestGate(options: options))
        let router = Router(context: MCPRequestContext.self)
        router.add(middleware: RequestBodyLimitMiddleware(maxBytes: options.maxRequestBytes))
        router.group(RouterPath(StreamableHTTPEndpoint.path))
            .add(middleware: ExactPathMiddleware(gate: gate.gate))
            .add(middleware: gate)
            .post { request, _ in
                var request = request
                let body = try await request.collectBody(upTo: options.maxRequestBytes)
                return await endpoint.post(HTTPExchangeRequest(head: request.head, body: Data(body.readableBytesView))).response()
            }
            .get { request, _ in await endpoint.get(HTTPExchangeRequest(head: request.head)).response() }
            .delete { request, _ in await endpoint.delete(HTTPExchangeRequest(head: request.head)).response() }
            .on("", method: .options) { _, _ in await endpoint.preflight().response() }
        // After the routes: it wraps the router's not-found answer only.
        router.add(middleware: UnroutedRequestMiddleware(gate: gate, endpoint: endpoint))
        return router
    }
}
