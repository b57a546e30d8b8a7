import Foundation
import Hummingbird

/// The routes of `dbai-mcp --http`, in the order a request meets them:
///
/// 1. ``RequestBodyLimitMiddleware``: every body read once, up to `--max-request-bytes` (413 beyond).
/// 2. `/mcp` exactly (``ExactPathMiddleware``), behind ``HTTPRequestGateMiddleware`` (Host,
///    Origin, bearer token): `POST`, `GET`, `DELETE` and the CORS preflight `OPTIONS`, each
///    answered by ``StreamableHTTPEndpoint``.
/// 3. With `--oauth-issuer`, the Protected Resource Metadata (RFC 9728) under `/.well-known/`,
///    outside the gate: public, for any origin, with no token.
/// 4. `GET`/`HEAD /healthz` (the process answers) and `/readyz` (the databases read, the audit
///    log can be written, no drain): for load balancers, outside the gate, a status word only.
/// 5. ``UnroutedRequestMiddleware``: 405 for another method of `/mcp`, 404 elsewhere.
enum MCPRouter {
    static func make(endpoint: StreamableHTTPEndpoint) -> Router<MCPRequestContext> {
        let options = endpoint.options
        let gate = HTTPRequestGateMiddleware(gate: HTTPRequestGate(options: options))
        let router = Router(context: MCPRequestContext.self)
        router.add(middleware: RequestBodyLimitMiddleware(maxBytes: options.maxRequestBytes))
        router.group(RouterPath(StreamableHTTPEndpoint.path))
            .add(middleware: ExactPathMiddleware(gate: gate.gate))
            .add(middleware: gate)
            .post { request, context in
                var request = request
                let body = try await request.collectBody(upTo: options.maxRequestBytes)
                return await endpoint.post(
                    HTTPExchangeRequest(head: request.head, body: Data(body.readableBytesView), caller: context.caller)).response()
            }
            .get { request, context in await endpoint.get(HTTPExchangeRequest(head: request.head, caller: context.caller)).response() }
            .delete { request, context in
                await endpoint.delete(HTTPExchangeRequest(head: request.head, caller: context.caller)).response()
            }
            .on("", method: .options) { _, _ in await endpoint.preflight().response() }
        if let oauth = options.oauth {
            let document = oauth.metadataDocument
            for path in oauth.metadataPaths {
                router.get(RouterPath(path)) { _, _ in
                    await HTTPReply(
                        status: .ok,
                        headers: [.contentType: "application/json", .accessControlAllowOrigin: "*", .cacheControl: "public, max-age=3600"],
                        body: .data(document)
                    ).response()
                }
            }
        }
        router.get(RouterPath("/healthz")) { _, _ in await endpoint.health().response() }
        router.head(RouterPath("/healthz")) { _, _ in await endpoint.health().response() }
        router.get(RouterPath("/readyz")) { _, _ in await endpoint.readiness().response() }
        router.head(RouterPath("/readyz")) { _, _ in await endpoint.readiness().response() }
        // After the routes: it wraps the router's not-found answer only.
        router.add(middleware: UnroutedRequestMiddleware(gate: gate, endpoint: endpoint))
        return router
    }
}
