import Foundation

/// How the resource server reaches its authorization server (metadata, keys, introspection).
/// `dbai-mcp` gives it the HTTP client its language models use; tests give it scripted answers.
public protocol OAuthHTTPFetching: Sendable {
    /// Sends `request` and returns the status and body of the answer.
    ///
    /// - Throws: Anything; the verifier reports it as the authorization server being unreachable.
    func fetch(_ request: OAuthHTTPRequest) async throws -> OAuthHTTPResponse
}

/// A request to the authorization server.
public struct OAuthHTTPRequest: Sendable, Hashable {
    public var url: String
    /// `GET` or `POST`.
    public var method: String
    public var headers: [String: String]
    public var body: Data

    public init(url: String, method: String = "GET", headers: [String: String] = [:], body: Data = Data()) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// The authorization server's answer.
public struct OAuthHTTPResponse: Sendable, Hashable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}
