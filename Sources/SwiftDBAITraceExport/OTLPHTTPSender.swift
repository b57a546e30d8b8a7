import AsyncHTTPClient
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// Posts encoded spans to the collector's OTLP/HTTP traces endpoint
/// (`Content-Type: application/x-protobuf`), with the configured headers, and again after a
/// pause when the collector asks (429, 502, 503, 504) or cannot be reached, until the export's
/// time is up. Its HTTP client makes no spans of its own.
final class OTLPHTTPSender: SpanBatchSender {
    private let client: HTTPClient
    private let endpoint: String
    private let headers: HTTPHeaders
    private let timeout: Duration
    private let logger = Logger(label: "dbai-mcp.otel")

    /// - Throws: NIOSSL's error for a certificate or key file that cannot be read.
    init(settings: TraceExportSettings) throws {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10)),
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
                let response = try await client.execute(request, timeout: .nanoseconds(Int64(min(timeout, deadline - clock.now).nanoseconds)))
                _ = try? await response.body.collect(upTo: 1 << 20)
                if (200...299).contains(response.status.code) { return }
                failure = "the collector answered \(response.status.code)"
                guard [429, 502, 503, 504].contains(response.status.code) else {
                    logger.warning("OpenTelemetry: \(spans) spans not exported to \(endpoint): \(failure).")
                    return
                }
            } catch {
                failure = "\(error)"
            }
            if Task.isCancelled || clock.now + pause >= deadline {
                logger.warning("OpenTelemetry: \(spans) spans not exported to \(endpoint): \(failure).")
                return
            }
            try? await Task.sleep(for: pause)
            pause *= 2
        }
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
