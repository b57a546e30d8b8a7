import Foundation

/// What the standard `OTEL_*` variables say about exporting spans: the OTLP/HTTP traces
/// endpoint, its headers, timeout and TLS files, the sampler, the batch span processor's limits,
/// whether trace context is propagated, and the resource.
public struct TraceExportSettings: Sendable {
    /// The traces URL: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` as given, or
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` followed by `v1/traces`.
    public var endpoint: String
    /// `OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`: `key=value` pairs, values percent-decoded.
    public var headers: [(String, String)]
    /// `OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT`: how long one request may take (10 s by default).
    public var timeout: Duration
    /// `OTEL_EXPORTER_OTLP_[TRACES_]CERTIFICATE`: the PEM file of the roots to trust (https).
    public var certificate: String?
    /// `OTEL_EXPORTER_OTLP_[TRACES_]CLIENT_CERTIFICATE`: the PEM file of a client certificate (mTLS).
    public var clientCertificate: String?
    /// `OTEL_EXPORTER_OTLP_[TRACES_]CLIENT_KEY`: the PEM file of that certificate's key.
    public var clientKey: String?
    /// `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`.
    public var sampler: TraceSampler
    /// `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_BSP_EXPORT_TIMEOUT`, `OTEL_BSP_MAX_QUEUE_SIZE`,
    /// `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`.
    public var limits: SpanExportQueue.Limits
    /// False when `OTEL_PROPAGATORS` leaves out `tracecontext` (`none`).
    public var propagates: Bool
    /// The resource: `OTEL_RESOURCE_ATTRIBUTES` (values percent-decoded), with `service.name` from
    /// `OTEL_SERVICE_NAME`, else from those attributes, else `defaultServiceName`.
    public var resource: [(key: String, value: String)]

    /// The service's name in ``resource``.
    public var serviceName: String {
        resource.first { $0.key == "service.name" }?.value ?? ""
    }

    /// Reads the variables; only the ones about traces are looked at.
    ///
    /// - Throws: ``TraceExportSettingsError`` naming the variable that cannot be used and what to
    ///   give instead.
    public init(environment: [String: String], defaultServiceName: String) throws(TraceExportSettingsError) {
        func value(_ key: String) -> String? { Self.setting(key, in: environment) }
        func signal(_ suffix: String) -> (key: String, value: String)? {
            for key in ["OTEL_EXPORTER_OTLP_TRACES_\(suffix)", "OTEL_EXPORTER_OTLP_\(suffix)"] {
                if let found = value(key) { return (key, found) }
            }
            return nil
        }
        func milliseconds(_ key: String, _ found: String?) throws(TraceExportSettingsError) -> Duration? {
            guard let found else { return nil }
            guard let number = Int(found), number > 0 else { throw TraceExportSettingsError(key, found, "give a positive number of milliseconds") }
            return .milliseconds(number)
        }
        func count(_ key: String) throws(TraceExportSettingsError) -> Int? {
            guard let found = value(key) else { return nil }
            guard let number = Int(found), number > 0 else { throw TraceExportSettingsError(key, found, "give a positive number") }
            return number
        }

        if let specific = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
            endpoint = try Self.url(specific, key: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", appending: nil)
        } else if let shared = value("OTEL_EXPORTER_OTLP_ENDPOINT") {
            endpoint = try Self.url(shared, key: "OTEL_EXPORTER_OTLP_ENDPOINT", appending: "v1/traces")
        } else {
            endpoint = "http://localhost:4318/v1/traces"
        }
        headers = try Self.headers(of: "TRACES", environment: environment) ?? []
        let timeoutSetting = signal("TIMEOUT")
        timeout = try milliseconds(timeoutSetting?.key ?? "", timeoutSetting?.value) ?? .seconds(10)
        let files = (signal("CERTIFICATE"), signal("CLIENT_CERTIFICATE"), signal("CLIENT_KEY"))
        for (key, path) in [files.0, files.1, files.2].compactMap(\.self) where !FileManager.default.isReadableFile(atPath: path) {
            throw TraceExportSettingsError(key, path, "the file cannot be read; give a readable PEM file")
        }
        if (files.1 == nil) != (files.2 == nil) {
            throw TraceExportSettingsError(
                files.1?.key ?? files.2?.key ?? "", files.1?.value ?? files.2?.value ?? "",
                "give both a client certificate (OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE) and its key (OTEL_EXPORTER_OTLP_CLIENT_KEY), or neither")
        }
        (certificate, clientCertificate, clientKey) = (files.0?.value, files.1?.value, files.2?.value)
        guard let sampler = TraceSampler(name: value("OTEL_TRACES_SAMPLER"), argument: value("OTEL_TRACES_SAMPLER_ARG")) else {
            throw TraceExportSettingsError(
                "OTEL_TRACES_SAMPLER", value("OTEL_TRACES_SAMPLER") ?? "",
                "use always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio")
        }
        self.sampler = sampler
        var limits = SpanExportQueue.Limits()
        limits.scheduleDelay = try milliseconds("OTEL_BSP_SCHEDULE_DELAY", value("OTEL_BSP_SCHEDULE_DELAY")) ?? limits.scheduleDelay
        limits.exportTimeout = try milliseconds("OTEL_BSP_EXPORT_TIMEOUT", value("OTEL_BSP_EXPORT_TIMEOUT")) ?? limits.exportTimeout
        limits.maxQueueSize = try count("OTEL_BSP_MAX_QUEUE_SIZE") ?? limits.maxQueueSize
        limits.maxExportBatchSize = min(try count("OTEL_BSP_MAX_EXPORT_BATCH_SIZE") ?? limits.maxExportBatchSize, limits.maxQueueSize)
        self.limits = limits
        let propagators = value("OTEL_PROPAGATORS")?.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        propagates = propagators.map { $0.contains("tracecontext") } ?? true

        resource = try Self.resource(environment: environment, defaultServiceName: defaultServiceName)
    }

    /// The resource every signal reports: `service.name` (from `OTEL_SERVICE_NAME`, else from
    /// `OTEL_RESOURCE_ATTRIBUTES`, else `defaultServiceName`) first, then the other attributes of
    /// `OTEL_RESOURCE_ATTRIBUTES`, values percent-decoded, the last of a repeated key kept.
    ///
    /// - Throws: ``TraceExportSettingsError`` for attributes that are not `key=value` pairs.
    public static func resource(
        environment: [String: String], defaultServiceName: String
    ) throws(TraceExportSettingsError) -> [(key: String, value: String)] {
        func value(_ key: String) -> String? { Self.setting(key, in: environment) }
        var resource: [(key: String, value: String)] = []
        if let listed = value("OTEL_RESOURCE_ATTRIBUTES") {
            guard let pairs = pairs(listed) else {
                throw TraceExportSettingsError("OTEL_RESOURCE_ATTRIBUTES", listed, "give comma-separated key=value pairs, values percent-encoded")
            }
            for (key, value) in pairs {
                resource.removeAll { $0.key == key }
                resource.append((key, value))
            }
        }
        let name = value("OTEL_SERVICE_NAME") ?? resource.first { $0.key == "service.name" }?.value ?? defaultServiceName
        resource.removeAll { $0.key == "service.name" }
        resource.insert(("service.name", name), at: 0)
        return resource
    }

    /// The OTLP headers of `signal` (`TRACES`, `METRICS`, `LOGS`): its own variable, else
    /// `OTEL_EXPORTER_OTLP_HEADERS`; nil when neither is set.
    ///
    /// - Throws: ``TraceExportSettingsError`` (without the value) for a list that is not
    ///   `key=value` pairs of a token and a value without control characters.
    public static func headers(of signal: String, environment: [String: String]) throws(TraceExportSettingsError) -> [(String, String)]? {
        for key in ["OTEL_EXPORTER_OTLP_\(signal)_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS"] {
            guard let found = setting(key, in: environment) else { continue }
            // The value is never repeated: headers hold credentials.
            guard let pairs = pairs(found), pairs.allSatisfy({ isToken($0.0) && isFieldValue($0.1) }) else {
                throw TraceExportSettingsError(
                    key, "…", "give comma-separated key=value pairs (names of letters, digits and !#$%&'*+-.^_`|~; values "
                        + "percent-encoded, without control characters)")
            }
            return pairs
        }
        return nil
    }

    /// A variable's value, trimmed; nil when unset or blank.
    private static func setting(_ key: String, in environment: [String: String]) -> String? {
        guard let value = environment[key]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// An HTTP field name: one or more of RFC 9110's token characters.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// An HTTP field value: no control character but a tab (no CR, LF or NUL to split a request).
    static func isFieldValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7f) }
    }

    /// An http or https URL; with `appending`, that path after the URL's own (and a `/`).
    private static func url(_ text: String, key: String, appending: String?) throws(TraceExportSettingsError) -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else {
            // Not repeated: a URL may hold credentials.
            throw TraceExportSettingsError(key, "…", "give an http:// or https:// URL of the collector's OTLP/HTTP receiver (port 4318)")
        }
        guard let appending else { return components.path.isEmpty ? text + "/" : text }
        return text.hasSuffix("/") ? text + appending : text + "/" + appending
    }

    /// `key=value` pairs separated by commas (W3C Baggage's format, as OTLP headers and
    /// resource attributes are given); values percent-decoded. Nil when one is malformed.
    public static func pairs(_ text: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            let raw = parts[1].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, let value = raw.removingPercentEncoding else { return nil }
            pairs.append((key, value))
        }
        return pairs
    }
}

/// A variable that cannot be used to export spans.
public struct TraceExportSettingsError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ key: String, _ value: String, _ remedy: String) {
        description = "\(key)=\(value): \(remedy)."
    }
}
