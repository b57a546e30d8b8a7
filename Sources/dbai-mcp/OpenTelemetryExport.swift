import CoreMetrics
import Foundation
import Logging
import OTel
import ServiceLifecycle
import SwiftDBAIMCP
import SwiftDBAITraceExport
import Tracing

/// OpenTelemetry for `dbai-mcp`: spans through ``OTLPTracer`` (this package's OTLP/HTTP span
/// exporter), metrics and logs through swift-otel's. A signal is on when
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (every signal) or its own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
/// `…_METRICS_ENDPOINT` or `…_LOGS_ENDPOINT` is set, unless `OTEL_SDK_DISABLED=true` or its
/// `OTEL_{TRACES,METRICS,LOGS}_EXPORTER` is `none`; the other standard `OTEL_*` variables
/// configure it (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`,
/// `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_EXPORTER_OTLP_HEADERS`, …).
/// With none set, nothing is bootstrapped and the server makes no span.
struct OpenTelemetryExport {
    var traces: Bool
    var metrics: Bool
    var logs: Bool
    /// The variables read.
    let environment: [String: String]

    /// The signals the environment turns on.
    init(environment: [String: String]) {
        self.environment = environment
        func on(_ signal: String) -> Bool {
            let endpoint = Self.setting("OTEL_EXPORTER_OTLP_ENDPOINT", in: environment)
                ?? Self.setting("OTEL_EXPORTER_OTLP_\(signal)_ENDPOINT", in: environment)
            return endpoint != nil && Self.setting("OTEL_\(signal)_EXPORTER", in: environment) != "none"
        }
        let disabled = Self.setting("OTEL_SDK_DISABLED", in: environment) == "true"
        traces = !disabled && on("TRACES")
        metrics = !disabled && on("METRICS")
        logs = !disabled && on("LOGS")
    }

    var isOn: Bool { traces || metrics || logs }

    /// A variable's value as this check reads it: trimmed and lowercased; nil when unset or blank.
    private static func setting(_ key: String, in environment: [String: String]) -> String? {
        guard let value = environment[key]?.trimmingCharacters(in: .whitespaces).lowercased(), !value.isEmpty else { return nil }
        return value
    }

    /// Why the environment cannot be used, or nil: a setting swift-otel does not support (it
    /// would stop the process) or, over stdio, a console exporter (it writes to standard output,
    /// which carries the protocol there). The W3C baggage propagator, which swift-otel lacks, is
    /// not a reason: ``usablePropagators(_:)`` leaves it out.
    static func refusal(environment: [String: String], overStdio: Bool) -> String? {
        func value(_ key: String) -> String? { setting(key, in: environment) }
        for key in ["OTEL_EXPORTER_OTLP_PROTOCOL"] + ["TRACES", "METRICS", "LOGS"].map({ "OTEL_EXPORTER_OTLP_\($0)_PROTOCOL" }) {
            if let found = value(key), found != "http/protobuf", found != "http/json" {
                return "\(key)=\(found): dbai-mcp exports OTLP over HTTP only; set http/protobuf (the default) "
                    + "and the collector's OTLP/HTTP endpoint (port 4318)."
            }
        }
        if OpenTelemetryExport(environment: environment).traces,
           let key = ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"].first(where: { value($0) != nil }),
           value(key) == "http/json" {
            return "\(key)=http/json: dbai-mcp exports spans in http/protobuf (every collector reads it); set "
                + "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf (metrics and logs may stay in http/json)."
        }
        for signal in ["TRACES", "METRICS", "LOGS"] {
            let key = "OTEL_\(signal)_EXPORTER"
            switch value(key) {
            case nil, "otlp", "none": continue
            case "console" where !overStdio && signal == "LOGS": continue
            case "console" where overStdio:
                return "\(key)=console writes to standard output, which carries MCP over stdio; use otlp (the default) or run with --http."
            case let other?:
                return "\(key)=\(other): dbai-mcp exports with otlp (the default) or none."
            }
        }
        if let sampler = value("OTEL_TRACES_SAMPLER"), ["xray", "jaeger_remote", "parentbased_jaeger_remote"].contains(sampler) {
            return "OTEL_TRACES_SAMPLER=\(sampler) is not supported; use always_on, always_off, traceidratio or parentbased_"
                + "always_on, parentbased_always_off, parentbased_traceidratio."
        }
        // Zero makes swift-otel's processors spin (a delay) or never empty their queue (a batch).
        // (The span processor's OTEL_BSP_* are TraceExportSettings'.)
        for key in ["OTEL_BLRP_SCHEDULE_DELAY", "OTEL_METRIC_EXPORT_INTERVAL", "OTEL_BLRP_MAX_EXPORT_BATCH_SIZE", "OTEL_BLRP_MAX_QUEUE_SIZE"] {
            if let found = value(key), let number = Int(found), number <= 0 {
                return "\(key)=\(found): give a positive number (or leave it unset for the default)."
            }
        }
        let propagators = value("OTEL_PROPAGATORS")?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        if let other = propagators.first(where: { !["tracecontext", "baggage", "none", ""].contains($0) }) {
            return "OTEL_PROPAGATORS: \(other) is not supported; dbai-mcp reads and writes W3C trace context (tracecontext)."
        }
        return nil
    }

    /// `OTEL_PROPAGATORS` without `baggage` (swift-otel has no baggage propagator), or nil when
    /// it needs no change.
    static func usablePropagators(_ environment: [String: String]) -> String? {
        guard let listed = environment["OTEL_PROPAGATORS"] else { return nil }
        let names = listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard names.contains("baggage") else { return nil }
        let kept = names.filter { $0 != "baggage" && !$0.isEmpty }
        return kept.isEmpty ? "none" : kept.joined(separator: ",")
    }

    /// swift-otel's configuration: the signals on, the resource the spans report (so that every
    /// signal names the same service, `dbai-mcp` unless `OTEL_SERVICE_NAME` or `service.name` in
    /// `OTEL_RESOURCE_ATTRIBUTES` says otherwise, with the same decoded attributes), and its own
    /// diagnostics on stderr at `warning`.
    private func configuration(durationBuckets: [Duration], resource: [(key: String, value: String)]) -> OTel.Configuration {
        var configuration = OTel.Configuration.default
        for (key, value) in resource {
            if key == "service.name" { configuration.serviceName = value } else { configuration.resourceAttributes[key] = value }
        }
        configuration.diagnosticLogger = .custom(Logger(label: "dbai-mcp.otel") { StreamLogHandler.standardError(label: $0) })
        configuration.diagnosticLogLevel = .warning
        configuration.traces.enabled = false
        configuration.metrics.enabled = metrics
        configuration.metrics.defaultDurationHistogramBuckets = durationBuckets
        configuration.logs.enabled = logs
        return configuration
    }

    /// What the process reports to: the pieces to bootstrap, and the exporters' service.
    struct Backends {
        var tracer: (any Tracer)?
        var metricsFactory: (any MetricsFactory)?
        var logHandler: (@Sendable (String) -> any LogHandler)?
        /// Runs the exporters; shut down gracefully, it sends what is left.
        var services: [any Service]
    }

    /// Makes the exporters of the signals on.
    ///
    /// - Throws: ``TraceExportSettingsError`` or swift-otel's error for a configuration that
    ///   cannot be used (an unknown exporter or sampler, a malformed variable).
    func makeBackends(durationBuckets: [Duration]) throws -> Backends {
        // Every setting is read before anything is made: a backend made, then dropped when a later
        // one fails, would have to be shut down first.
        let resource = try TraceExportSettings.resource(environment: environment, defaultServiceName: "dbai-mcp")
        let traceSettings = traces ? try TraceExportSettings(environment: environment, defaultServiceName: "dbai-mcp") : nil
        var configuration = configuration(durationBuckets: durationBuckets, resource: resource)
        // Headers are read, checked and percent-decoded here, as for spans, and hidden from swift-otel,
        // which would log their values (credentials) when it cannot parse them or at level info.
        if let headers = try TraceExportSettings.headers(of: "METRICS", environment: environment) {
            configuration.metrics.otlpExporter.headers = headers
        }
        if let headers = try TraceExportSettings.headers(of: "LOGS", environment: environment) {
            configuration.logs.otlpExporter.headers = headers
        }
        let hidden = Dictionary(uniqueKeysWithValues: ["", "TRACES_", "METRICS_", "LOGS_"].map { ("OTEL_EXPORTER_OTLP_\($0)HEADERS", String?.none) })
        var backends = Backends(services: [])
        if metrics {
            let (factory, service) = try Self.withEnvironment(hidden) { try OTel.makeMetricsBackend(configuration: configuration) }
            backends.metricsFactory = factory
            backends.services.append(service)
        }
        if logs {
            let (handler, service) = try Self.withEnvironment(hidden) { try OTel.makeLoggingBackend(configuration: configuration) }
            backends.logHandler = handler
            backends.services.append(service)
            if traces {
                // swift-otel's log records carry the span context only its own tracer sets: it reads
                // each record's span from its traceparent (SpanCorrelatedLogHandler). That tracer
                // exports nothing and reads W3C trace context whatever OTEL_* says (swift-otel
                // lets the environment override its configuration).
                var bridge = configuration
                bridge.traces.enabled = true
                bridge.traces.exporter = .none
                let bridgeVariables = hidden.merging(["OTEL_PROPAGATORS": "tracecontext", "OTEL_TRACES_EXPORTER": "none"]) { $1 }
                let (otelTracer, bridgeService) = try Self.withEnvironment(bridgeVariables) {
                    try OTel.makeTracingBackend(configuration: bridge)
                }
                backends.services.append(bridgeService)
                backends.logHandler = { label in
                    SpanCorrelatedLogHandler(exporting: handler(label)) { context, identity in
                        otelTracer.extract(["traceparent": identity.traceparent], into: &context, using: TraceparentExtractor())
                    }
                }
            }
        }
        // Last: its HTTP client is made only once nothing after it can fail.
        if let traceSettings {
            let tracer = try OTLPTracer(settings: traceSettings, scope: ("dbai-mcp", DBAIServer.version))
            backends.tracer = tracer
            backends.services.append(tracer.queue)
        }
        return backends
    }

    /// Runs `body` with `variables` set (or, nil, unset) in the process's environment, then puts
    /// back what was there (at start-up, before the server or any exporter runs).
    private static func withEnvironment<Result>(_ variables: [String: String?], _ body: () throws -> Result) rethrows -> Result {
        let saved = variables.keys.map { ($0, getenv($0).map { String(cString: $0) }) }
        for (key, value) in variables {
            if let value { setenv(key, value, 1) } else { unsetenv(key) }
        }
        defer {
            for (key, value) in saved {
                if let value { setenv(key, value, 1) } else { unsetenv(key) }
            }
        }
        return try body()
    }

    /// The process's log handlers: standard error, with the current span's `trace_id` and
    /// `span_id` in each line's metadata when tracing, and the OTLP exporter's handler as well
    /// when logs are exported (its records carry the span's context).
    static func bootstrapLogging(_ backends: Backends?) {
        guard let backends, backends.tracer != nil || backends.logHandler != nil else {
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
            return
        }
        let provider = Logger.MetadataProvider.spanIdentity
        let exported = backends.logHandler
        LoggingSystem.bootstrap({ label, provider in
            let standardError = StreamLogHandler.standardError(label: label, metadataProvider: provider)
            guard let exported else { return standardError }
            return MultiplexLogHandler([standardError, exported(label)])
        }, metadataProvider: provider)
    }

    /// Runs the exporters until ``finish(_:)``.
    static func start(_ services: [any Service]) -> Running? {
        guard !services.isEmpty else { return nil }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
            logger: Logger(label: "dbai-mcp.otel")))
        return Running(group: group, task: Task { try? await group.run() })
    }

    struct Running {
        let group: ServiceGroup
        let task: Task<Void, Never>

        /// Sends what is left (spans of the last requests, the metrics' last values) and stops
        /// the exporters: at most `limit`, so that a collector that does not answer does not hold
        /// the process.
        func finish(within limit: Duration = .seconds(5)) async {
            await group.triggerGracefulShutdown()
            let task = task
            let deadline = Task {
                try? await Task.sleep(for: limit)
                task.cancel()
            }
            await task.value
            deadline.cancel()
        }
    }
}

/// Reads a `traceparent` from a dictionary (swift-otel's tracer, reading a span's context).
private struct TraceparentExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
