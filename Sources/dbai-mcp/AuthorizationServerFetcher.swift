import Foundation
import SwiftDBAIAsyncHTTPClient
import SwiftDBAIChat
import SwiftDBAIOAuth

/// How `dbai-mcp` reaches the authorization server of `--oauth-issuer`: the HTTP client its
/// language models use (no redirects, no cookies), answers of at most 1 MiB, 10 s a request.
struct AuthorizationServerFetcher: OAuthHTTPFetching {
    private let transport = AsyncHTTPClientTransport(client: AsyncHTTPClientTransport.shared.client, maxResponseBytes: 1 << 20)

    func fetch(_ request: OAuthHTTPRequest) async throws -> OAuthHTTPResponse {
        guard let url = URL(string: request.url) else {
            throw HTTPTransportError(.invalidURL, "\(request.url) is not a URL")
        }
        let response = try await transport.send(
            HTTPTransportRequest(url: url, method: request.method, headers: request.headers, body: request.body), timeout: .seconds(10))
        return OAuthHTTPResponse(status: response.status, body: response.body)
    }
}
