import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SwiftDBAI
import SwiftDBAIChat

/// An ``HTTPTransport`` on AsyncHTTPClient: what `dbai-mcp` uses for every language model, on
/// every platform.
///
/// Requests run concurrently over pooled connections (HTTP/1.1, or HTTP/2 where TLS offers it),
/// with no cookies, no cache and no redirects (a provider API does not redirect a POST, and a
/// redirect must not carry an API key elsewhere). A refused connection fails at once, so the
/// model's own retry policy decides what happens next.
///
/// ```swift
/// let model = OllamaModel(model: "qwen2.5-coder:7b", transport: .asyncHTTPClient)
/// ```
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The process-wide transport, on one client that lives as long as the process (created on
    /// first use, on AsyncHTTPClient's shared event loops).
    public static let shared = AsyncHTTPClientTransport(client: sharedClient)

    /// The configuration of ``shared``'s client.
    public static var configuration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            certificateVerification: .fullVerification,
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10)),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    private static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)

    /// The client that sends the requests.
    public let client: HTTPClient
    /// The largest body accepted in an answer (32 MiB by default).
    public let maxResponseBytes: Int

    /// Creates a transport on `client`, which the caller shuts down after its last use.
    public init(client: HTTPClient, maxResponseBytes: Int = 32 << 20) {
        self.client = client
        self.maxResponseBytes = max(1, maxResponseBytes)
    }

    /// Sends the request and collects the whole answer.
    ///
    /// - Throws: ``HTTPTransportError``: `.timedOut` after `timeout`, `.cancelled` when the task
    ///   is cancelled, and the connection, TLS and parsing failures by their codes.
    public func send(_ request: HTTPTransportRequest, timeout: Duration) async throws(HTTPTransportError)
        -> HTTPTransportResponse
    {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            outgoing.headers.replaceOrAdd(name: name, value: value)
        }
        if !request.body.isEmpty {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        do {
            let response = try await client.execute(outgoing, deadline: .now() + TimeAmount(timeout))
            var body = try await response.body.collect(upTo: maxResponseBytes)
            let bytes = body.readBytes(length: body.readableBytes) ?? []
            // Repeated fields (whatever their case) joined in the order they came.
            let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }) { "\($0), \($1)" }
            return HTTPTransportResponse(status: Int(response.status.code), headers: headers, body: Data(bytes))
        } catch {
            throw Task.isCancelled ? HTTPTransportError(.cancelled) : TransportErrorMapping.error(for: error)
        }
    }
}

extension HTTPTransport where Self == AsyncHTTPClientTransport {
    /// ``AsyncHTTPClientTransport/shared``: `transport: .asyncHTTPClient`.
    public static var asyncHTTPClient: AsyncHTTPClientTransport { .shared }
}

extension TimeAmount {
    /// The duration, in nanoseconds, saturating at the largest amount.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (whole, multiplyOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, addOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        self = .nanoseconds(multiplyOverflow || addOverflow ? .max : total)
    }
}
