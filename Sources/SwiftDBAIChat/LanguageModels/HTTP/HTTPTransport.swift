import Foundation
import SwiftDBAI

/// What carries the HTTP language models' requests: one request in, one whole answer out.
///
/// The library ships no transport of its own, so its core links neither NIO nor
/// FoundationNetworking. `SwiftDBAIAsyncHTTPClient` provides ``HTTPTransport`` on
/// AsyncHTTPClient (`.asyncHTTPClient`), which `dbai-mcp` uses on every platform. An app on an
/// Apple platform may adapt `URLSession` in a few lines instead:
///
/// ```swift
/// struct URLSessionTransport: HTTPTransport {
///     func send(_ request: HTTPTransportRequest, timeout: Duration)
///         async throws(HTTPTransportError) -> HTTPTransportResponse
///     {
///         var urlRequest = URLRequest(url: request.url)
///         urlRequest.httpMethod = request.method
///         urlRequest.httpBody = request.body
///         urlRequest.timeoutInterval = Double(timeout.components.seconds)
///         for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
///         do {
///             let (data, response) = try await URLSession.shared.data(for: urlRequest)
///             guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
///             let headers = http.allHeaderFields.reduce(into: [String: String]()) { headers, field in
///                 headers["\(field.key)"] = "\(field.value)"
///             }
///             return HTTPTransportResponse(status: http.statusCode, headers: headers, body: data)
///         } catch {
///             throw HTTPTransportError(.other, String(describing: error))  // map URLError codes here
///         }
///     }
/// }
/// ```
///
/// The models time each attempt themselves and retry, so a transport sends once and never
/// retries. Requests may run concurrently: a transport must not serialise them.
public protocol HTTPTransport: Sendable {
    /// Sends one request and returns the status, headers and whole body of the answer.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - timeout: How long the exchange may take, from connecting to the last byte of the body.
    ///     Give up after it with ``HTTPTransportError/Code/timedOut``.
    /// - Throws: ``HTTPTransportError``. When the calling task is cancelled, stop at once with
    ///   ``HTTPTransportError/Code/cancelled``.
    func send(_ request: HTTPTransportRequest, timeout: Duration) async throws(HTTPTransportError)
        -> HTTPTransportResponse
}

/// One HTTP request, with its whole body.
public struct HTTPTransportRequest: Sendable, Hashable {
    /// The absolute http(s) URL.
    public var url: URL
    /// The method: `POST` for model calls, `GET` for what a server reports (`/models`).
    public var method: String
    /// The header fields, each sent once.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a request.
    public init(url: URL, method: String = "POST", headers: [String: String] = [:], body: Data = Data()) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// The answer to an ``HTTPTransportRequest``: whatever its status.
public struct HTTPTransportResponse: Sendable, Hashable {
    /// The status code (200, 429…).
    public var status: Int
    /// The header fields, names in lower case; repeated fields joined with `", "`.
    public var headers: [String: String]
    /// The whole body.
    public var body: Data

    /// Creates a response. Header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { "\($0), \($1)" }
        self.body = body
    }
}

/// Why an ``HTTPTransport`` got no answer. The language models turn it into a
/// ``LanguageModelError`` and decide from ``code`` whether to retry.
public struct HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, stable across transports.
    public enum Code: String, Sendable, Hashable {
        /// The exchange took longer than its timeout.
        case timedOut = "timed_out"
        /// The calling task was cancelled.
        case cancelled
        /// Nothing listens at the host and port (retried).
        case connectionRefused = "connection_refused"
        /// The connection closed or reset before the answer was complete (retried).
        case connectionLost = "connection_lost"
        /// The host name could not be resolved.
        case hostNotFound = "host_not_found"
        /// The TLS handshake or certificate check failed.
        case tlsFailure = "tls_failure"
        /// The URL is not an http(s) URL the transport can send to.
        case invalidURL = "invalid_url"
        /// What came back is not HTTP.
        case invalidResponse = "invalid_response"
        /// The body is larger than the transport accepts.
        case responseTooLarge = "response_too_large"
        /// Any other failure; ``HTTPTransportError/detail`` says which.
        case other
    }

    /// What went wrong.
    public var code: Code
    /// The transport's own words, for logs and the `other` case (may be empty).
    public var detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    /// The code, and the detail when there is one.
    public var description: String {
        detail.isEmpty ? code.rawValue : "\(code.rawValue): \(detail)"
    }
}
