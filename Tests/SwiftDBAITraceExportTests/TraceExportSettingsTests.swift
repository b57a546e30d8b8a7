import Foundation
import Testing

@testable import SwiftDBAITraceExport

@Suite("TraceExportSettings: the OTEL_* variables about spans")
struct TraceExportSettingsTests {
    static func settings(_ environment: [String: String]) throws -> TraceExportSettings {
        try TraceExportSettings(environment: environment, defaultServiceName: "dbai-mcp")
    }

    @Test("the shared endpoint gets v1/traces; the traces endpoint is used as given", arguments: [
        (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"], "http://collector:4318/v1/traces"),
        (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318/"], "http://collector:4318/v1/traces"),
        (["OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector/otlp"], "https://collector/otlp/v1/traces"),
        (["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/custom", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://other"],
         "http://collector:4318/custom"),
        (["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318"], "http://collector:4318/"),
    ])
    func endpoints(environment: [String: String], endpoint: String) throws {
        #expect(try Self.settings(environment).endpoint == endpoint)
    }

    @Test("an endpoint that is not an http or https URL is refused, naming the variable", arguments: [
        "collector:4318", "grpc://collector:4317", "http://", "not a url",
    ])
    func badEndpoints(endpoint: String) {
        #expect {
            try Self.settings(["OTEL_EXPORTER_OTLP_ENDPOINT": endpoint])
        } throws: { error in
            "\(error)".hasPrefix("OTEL_EXPORTER_OTLP_ENDPOINT=") && "\(error)".contains("http://")
        }
    }

    @Test("headers: key=value pairs, percent-decoded, the traces ones instead of the shared ones; a malformed list is refused without its value")
    func headers() throws {
        let settings = try Self.settings([
            "OTEL_EXPORTER_OTLP_HEADERS": "api-key=shared",
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "Authorization=Bearer%20abc, x-team = db ",
        ])
        #expect(settings.headers.map { "\($0.0)=\($0.1)" } == ["Authorization=Bearer abc", "x-team=db"])
        #expect(try Self.settings(["OTEL_EXPORTER_OTLP_HEADERS": "api-key=shared"]).headers.map(\.1) == ["shared"])
        #expect {
            try Self.settings(["OTEL_EXPORTER_OTLP_HEADERS": "secret-without-equals"])
        } throws: { error in
            !"\(error)".contains("secret") && "\(error)".contains("OTEL_EXPORTER_OTLP_HEADERS")
        }
    }

    @Test("a header that would split the request, or whose name is not a token, is refused without its value", arguments: [
        "x-a=b%0D%0Ainjected: 1", "x-a=b%00c", "bad name=1", "x:a=1", "=1",
    ])
    func unsafeHeaders(headers: String) {
        #expect {
            try Self.settings(["OTEL_EXPORTER_OTLP_HEADERS": headers])
        } throws: { error in
            "\(error)".hasPrefix("OTEL_EXPORTER_OTLP_HEADERS=…") && !"\(error)".contains("injected")
        }
        #expect(TraceExportSettings.isToken("X-Api-Key") && TraceExportSettings.isFieldValue("Bearer a\tb"))
    }

    @Test("timeouts and the batch processor's limits, in milliseconds and counts; a batch is never larger than the queue")
    func limits() throws {
        let settings = try Self.settings([
            "OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_BSP_EXPORT_TIMEOUT": "7000",
            "OTEL_BSP_MAX_QUEUE_SIZE": "64", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "512",
        ])
        #expect(settings.timeout == .milliseconds(2_500))
        #expect(settings.limits.scheduleDelay == .milliseconds(100) && settings.limits.exportTimeout == .seconds(7))
        #expect(settings.limits.maxQueueSize == 64 && settings.limits.maxExportBatchSize == 64)
        let defaults = try Self.settings([:])
        #expect(defaults.timeout == .seconds(10) && defaults.limits == SpanExportQueue.Limits())
        for (key, value) in [("OTEL_BSP_SCHEDULE_DELAY", "0"), ("OTEL_BSP_MAX_QUEUE_SIZE", "-1"), ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "soon")] {
            #expect { try Self.settings([key: value]) } throws: { "\($0)".hasPrefix("\(key)=\(value): give a positive number") }
        }
    }

    @Test("the service name: OTEL_SERVICE_NAME, else service.name of the resource attributes, else the default")
    func serviceName() throws {
        let attributes = "service.name=billing,deployment.environment=prod%2Ceu"
        #expect(try Self.settings([:]).serviceName == "dbai-mcp")
        let fromAttributes = try Self.settings(["OTEL_RESOURCE_ATTRIBUTES": attributes])
        #expect(fromAttributes.serviceName == "billing")
        #expect(fromAttributes.resource.map { "\($0.key)=\($0.value)" } == ["service.name=billing", "deployment.environment=prod,eu"])
        #expect(try Self.settings(["OTEL_RESOURCE_ATTRIBUTES": attributes, "OTEL_SERVICE_NAME": "ledger"]).serviceName == "ledger")
    }

    @Test("samplers and propagators")
    func samplerAndPropagators() throws {
        let settings = try Self.settings(["OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.5"])
        #expect(settings.sampler == .parentBased(root: .traceIDRatio(0.5)) && settings.propagates)
        #expect(try !Self.settings(["OTEL_PROPAGATORS": "none"]).propagates)
        #expect(try Self.settings(["OTEL_PROPAGATORS": "baggage, tracecontext"]).propagates)
        #expect { try Self.settings(["OTEL_TRACES_SAMPLER": "sometimes"]) } throws: { "\($0)".contains("always_on") }
    }

    @Test("TLS files must be readable, and a client certificate comes with its key")
    func tlsFiles() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString).pem")
        try Data("not checked here".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Self.settings(["OTEL_EXPORTER_OTLP_CERTIFICATE": file.path]).certificate == file.path)
        #expect { try Self.settings(["OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": "/no/such/ca.pem"]) } throws: {
            "\($0)".hasPrefix("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE=/no/such/ca.pem")
        }
        #expect { try Self.settings(["OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE": file.path]) } throws: { "\($0)".contains("CLIENT_KEY") }
    }
}
