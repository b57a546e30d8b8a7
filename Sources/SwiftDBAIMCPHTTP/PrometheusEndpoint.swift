import CoreMetrics
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle
import SwiftDBAIPrimitives

/// `--metrics HOST:PORT`: the server's metrics (``DBAIServerConfiguration/recordsMetrics``) in
/// the Prometheus text format at `GET /metrics`, on a listener of its own, apart from the MCP
/// endpoint and its token. The names follow the OpenTelemetry conventions for MCP, with dots
/// made underscores and durations in seconds: `mcp_server_operation_duration_seconds`,
/// `mcp_server_session_duration_seconds`, `dbai_rows_returned`, `dbai_bytes_returned`. They
/// hold counts and durations by method, tool and error type: no value from a database.
///
/// ```swift
/// let metrics = PrometheusEndpoint.bootstrap()
/// try await metrics.run(address: HTTPListenAddress(parsing: "127.0.0.1:9464"))
/// ```
public struct PrometheusEndpoint: Sendable {
    /// Where the metrics are kept.
    public let registry: PrometheusCollectorRegistry
    private let logger: Logger

    /// The endpoint of a registry that swift-metrics already reports to.
    public init(registry: PrometheusCollectorRegistry, logger: Logger = Logger(label: "dbai-mcp")) {
        self.registry = registry
        self.logger = logger
    }

    /// The endpoint swift-metrics reports to, once bootstrapped.
    private static let bootstrapped = Mutex<PrometheusEndpoint?>(nil)

    /// Makes swift-metrics report to a new registry (and to `other` as well, an OTLP exporter's
    /// factory), and returns its endpoint; later calls return the same endpoint (swift-metrics
    /// is bootstrapped once per process).
    public static func bootstrap(
        logger: Logger = Logger(label: "dbai-mcp"), alongside other: (any MetricsFactory)? = nil
    ) -> PrometheusEndpoint {
        bootstrapped.withLock { endpoint in
            if let endpoint { return endpoint }
            let made = makeAndBootstrap(logger: logger, alongside: other)
            endpoint = made
            return made
        }
    }

    /// The bounds of the duration histograms' buckets: calls take microseconds to seconds; the
    /// statement timeout caps them (10 s by default); sessions last up to hours.
    public static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
        .seconds(300), .seconds(1_800), .seconds(3_600),
    ]

    private static func makeAndBootstrap(logger: Logger, alongside other: (any MetricsFactory)?) -> PrometheusEndpoint {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.nameAndLabelSanitizer = { name, labels in
            (prometheusName(name, seconds: name.hasSuffix(".duration")), labels.map { (prometheusName($0.0, seconds: false), $0.1) })
        }
        factory.defaultDurationHistogramBuckets = durationBuckets
        if let other {
            MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [factory, other]))
        } else {
            MetricsSystem.bootstrap(factory)
        }
        return PrometheusEndpoint(registry: registry, logger: logger)
    }

    /// A Prometheus name: letters, digits and `_` (anything else becomes `_`), with `_seconds`
    /// for a duration.
    static func prometheusName(_ name: String, seconds: Bool) -> String {
        var sanitized = String(name.unicodeScalars.map { scalar in
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
                ? Character(scalar) : "_"
        })
        if let first = sanitized.unicodeScalars.first, ("0"..."9").contains(first) { sanitized = "_" + sanitized }
        return seconds ? sanitized + "_seconds" : sanitized
    }

    /// The metrics in the Prometheus text format.
    public func text() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Serves `GET /metrics` at `address` until the task is cancelled.
    ///
    /// - Parameter onListening: called with the address bound (the port chosen for port 0).
    /// - Throws: ``HTTPServeError/cannotListen(_:reason:)`` when the address cannot be bound.
    public func run(address: HTTPListenAddress, onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let router = Router()
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text())))
        }
        let listening = Mutex(false)
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { [logger] channel in
                listening.withLock { $0 = true }
                let bound = channel.localAddress.map { "\($0.ipAddress ?? address.host):\($0.port ?? address.port)" } ?? address.description
                logger.notice("dbai-mcp metrics on http://\(bound)/metrics")
                onListening(bound)
            },
            logger: quiet)
        do {
            try await application.runService(gracefulShutdownSignals: [])
        } catch {
            guard listening.withLock({ $0 }) else { throw HTTPServeError.cannotListen(address.description, reason: "\(error)") }
            throw error
        }
    }
}
