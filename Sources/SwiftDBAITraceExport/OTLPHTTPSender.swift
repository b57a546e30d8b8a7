import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

import Foundation

/// Posts encoded spans to the collector's OTLP/HTTP traces endpoint
/// (`Content-Type: application/x-protobuf`), with the configured headers, and again after a
/// pause when the collector asks (429, 502, 503, 504) or cannot be reached, until the export's
/// time is up. Its HTTP client makes no spans of its own.
final class OTLPHTTPSender: SpanBatchSender {
    private let client: HTTPClient
    private let endpoint: String
    /// The endpoint as logged: without user information or query (they may hold credentials).
    private let shownEndpoint: String
    private let headers: HTTPHeaders
    private let timeout: Duration
    private let logger = Logger(label: "dbai-mcp.otel")

    /// - Throws: NIOSSL's error for a certificate or key file that cannot be read.
    init(settings: TraceExportSettings) throws {
        // A read timeout too: the request's deadline stops at the response's head, and a collector
        // that then stalls the body would hold the queue.
        let requestTimeout = TimeAmount.nanoseconds(settings.timeout.nanoseconds)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: min(.seconds(10), requestTimeout), read: requestTimeout),
            decompression: .disabled)
        configuration.tracing.tracer = nil
        if settings.endpoint.lowercased().hasPrefix("https:") {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let path = settings.certificate { tls.trustRoots = .file(path) }
            if let certificate = settings.clientCertificate, let key = settings.clientKey {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
            }
            configuration.tlsConfiguration = tls
        }
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        endpoint = settings.endpoint
        if var shown = URLComponents(string: settings.endpoint) {
            (shown.user, shown.password, shown.query, shown.fragment) = (nil, nil, nil, nil)
            shownEndpoint = shown.string ?? "the collector"
        } else {
            shownEndpoint = "the collector"
        }
        var headers = HTTPHeaders()
        for (name, value) in settings.headers { headers.add(name: name, value: value) }
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-protobuf")
        headers.replaceOrAdd(name: "User-Agent", value: "dbai-mcp-otlp-exporter")
        self.headers = headers
        timeout = settings.timeout
    }

    func send(_ body: [UInt8], spans: Int, within limit: Duration) async {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var pause = Duration.milliseconds(500)
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers = headers
        let bytes = ByteBuffer(bytes: body)
        while true {
            request.body = .bytes(bytes)
            let failure: String
            do {
                let response = try await client.execute(request, timeout: .nanoseconds(min(timeout, deadline - clock.now).nanoseconds))
                let status = response.status.code
                _ = try? await response.body.collect(upTo: 1 << 20)
                if (200...299).contains(status) { return }
                failure = "the collector answered \(status)"
                guard [429, 502, 503, 504].contains(status) else {
                    logger.warning("OpenTelemetry: \(spans) spans not exported to \(shownEndpoint): \(failure).")
                    return
                }
            } catch {
                // Only what may pass on a later try is tried again (a connection, a timeout).
                guard Self.isTransient(error) else {
                    logger.warning("OpenTelemetry: \(spans) spans not exported to \(shownEndpoint): the request could not be made (\(type(of: error))).")
                    return
                }
                failure = "\(error)"
            }
            if Task.isCancelled || clock.now + pause >= deadline {
                logger.warning("OpenTelemetry: \(spans) spans not exported to \(shownEndpoint): \(failure).")
                return
            }
            try? await Task.sleep(for: pause)
            pause *= 2
        }
    }

    /// A failure that trying again may not meet: no connection, a timeout, a connection closed.
    /// Not a request the client refuses to make (a malformed header or URL).
    private static func isTransient(_ error: any Error) -> Bool {
        // A certificate or host name that TLS refuses is refused again.
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError { return false }
        guard let error = error as? HTTPClientError else { return true }
        return [
            .connectTimeout, .readTimeout, .writeTimeout, .remoteConnectionClosed, .deadlineExceeded, .cancelled,
            .tlsHandshakeTimeout, .getConnectionFromPoolTimeout, .uncleanShutdown,
        ].contains(error)
    }

    func shutdown() async {
        try? await client.shutdown()
    }
}

extension Duration {
    /// The whole nanoseconds of the duration (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
