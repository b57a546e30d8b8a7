import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel
import Tracing

/// The server's traces, through swift-distributed-tracing (whichever tracer the process
/// bootstrapped: swift-otel's OTLP exporter for `dbai-mcp`), after the OpenTelemetry conventions
/// for MCP: a `SERVER` span per request, named `{mcp.method.name} {gen_ai.tool.name}` (the
/// method alone for a tool the server does not know, and for other methods; `_OTHER` for a method
/// it does not serve), with
/// `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name` (`execute_tool`),
/// `jsonrpc.request.id`, `mcp.protocol.version`, `mcp.session.id`, `network.transport`, and on
/// failure `error.type` (`tool_error` for a result with `isError`, else the JSON-RPC code;
/// `cancelled` for a request cancelled without a response), `rpc.response.status_code` and an
/// error status with the JSON-RPC message.
///
/// Its parent is the context the client put in `params._meta` (`traceparent`, `tracestate`,
/// SEP-414; checked first, ``TraceCarrier``); the HTTP request's own context (its `traceparent` header), when there is
/// one, is then linked, and is the parent when `_meta` carries none. The span is current while
/// the request's handler runs, so the SQLite statements, the model calls of `ask` and the
/// confirmation round trip are its children.
///
/// A server that does not trace has no such observer: its dispatcher pays a nil check per request.
struct OperationTracing: RequestObserver {
    /// Makes the spans and reads the context in `_meta` (the process's bootstrapped tracer).
    let tracer: any Tracer
    /// The tool names a span's name may hold; another is named after the method alone.
    let toolNames: Set<String>
    /// `network.transport`: `pipe` for stdio, `tcp` for HTTP.
    let transport: String
    /// The HTTP session (2025-11-25) the requests belong to; nil for stdio and stateless requests.
    let sessionID: String?
    /// True when the statements' spans carry their values (``ServiceContext/recordsSQLValues``).
    let recordsSQLValues: Bool

    /// The longest client-chosen text (a method, a tool name) put in an attribute.
    static let maxTextLength = 128

    /// `text` cut to ``maxTextLength`` characters (not counted when its bytes are fewer).
    static func clipped(_ text: String) -> String {
        text.utf8.count <= maxTextLength ? text : String(text.prefix(maxTextLength))
    }

    func begin(_ request: ArrivingRequest) -> any ObservedRequest {
        let ambient = ServiceContext.current
        var parent = ambient ?? .topLevel
        var link: ServiceContext?
        if case .object(let meta)? = request.params["_meta"],
           let carrier = TraceCarrier(traceparent: meta["traceparent"]?.stringValue, tracestate: meta["tracestate"]?.stringValue) {
            var carried = ServiceContext.topLevel
            carrier.extract(into: &carried, using: tracer)
            if carried.count > 0 {
                parent = carried
                link = ambient
            }
        }
        // Set only when it changes something (a write to the context copies it).
        if recordsSQLValues || parent.recordsSQLValues { parent.recordsSQLValues = recordsSQLValues }
        let method = Self.clipped(request.method)
        // Span names hold only what the server knows (a method a client invents is `_OTHER`).
        var name = OperationMetrics.methods.contains(request.method) ? request.method : "_OTHER"
        var tool: String?
        var prompt: String?
        switch request.method {
        case "tools/call":
            tool = request.params["name"]?.stringValue.map(Self.clipped)
            if let tool, toolNames.contains(tool) { name = "tools/call " + tool }
        case "prompts/get":
            prompt = request.params["name"]?.stringValue.map(Self.clipped)
        default:
            break
        }
        let span: any Span = tracer.startSpan(name, context: parent, ofKind: .server)
        if span.isRecording {
            if let link { span.addLink(SpanLink(context: link, attributes: [:])) }
            var attributes: [(String, SpanAttribute)] = []
            attributes.reserveCapacity(9)
            attributes.append(("mcp.method.name", .string(method)))
            attributes.append(("network.transport", .string(transport)))
            if let tool {
                attributes.append(("gen_ai.tool.name", .string(tool)))
                attributes.append(("gen_ai.operation.name", .string("execute_tool")))
            }
            if let prompt { attributes.append(("gen_ai.prompt.name", .string(prompt))) }
            if request.method == "resources/read", let uri = request.params["uri"]?.stringValue {
                attributes.append(("mcp.resource.uri", .string(String(uri.prefix(1_024)))))
            }
            attributes.append(("jsonrpc.request.id", .string(request.id.attributeText)))
            if let version = request.protocolVersion { attributes.append(("mcp.protocol.version", .string(version))) }
            if let sessionID { attributes.append(("mcp.session.id", .string(sessionID))) }
            span.record(attributes, through: span as? any SpanAttributeListRecording)
        }
        return TracedRequest(span: span)
    }

    /// The server span of one request.
    struct TracedRequest: ObservedRequest {
        let span: any Span

        func during(_ handler: @Sendable () async throws -> Value) async throws -> Value {
            try await ServiceContext.withValue(span.context) { try await handler() }
        }

        func end(_ outcome: Result<Value, any Error>?, responseBytes: Int) {
            switch outcome {
            case nil:
                span.attributes["error.type"] = "cancelled"
                span.setStatus(SpanStatus(code: .error, message: "cancelled without a response"))
            case .success(let result):
                if result.objectValue?["isError"] == true {
                    span.attributes["error.type"] = "tool_error"
                    span.setStatus(SpanStatus(code: .error))
                }
            case .failure(let error):
                let protocolError = ProtocolError.from(error)
                span.attributes["error.type"] = String(protocolError.code)
                span.attributes["rpc.response.status_code"] = String(protocolError.code)
                span.setStatus(SpanStatus(code: .error, message: protocolError.message))
            }
            span.end()
        }
    }
}

extension ID {
    /// The id as `jsonrpc.request.id` holds it: a string as is, a number in decimal.
    var attributeText: String {
        switch self {
        case .string(let text): OperationTracing.clipped(text)
        case .number(let number): String(number)
        }
    }
}
