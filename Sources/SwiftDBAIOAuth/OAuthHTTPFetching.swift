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
    /// The absolute URL.
    public var url: String
    /// `GET` or `POST`.
    public var method: String
    /// The header fields, each sent once.
    public var headers: [String: String]
    /// The body (a form, for introspection).
    public var body: Data

    /// A request; `GET` with no body by default.
    public init(url: String, method: String = "GET", headers: [String: String] = [:], body: Data = Data()) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// The authorization server's answer.
public struct OAuthHTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The whole body.
    public var body: Data

    /// A response.
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}
