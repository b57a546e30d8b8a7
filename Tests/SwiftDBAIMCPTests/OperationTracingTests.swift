import InMemoryTracing
import MCP
import SwiftDBAIMCPKernel
import Testing
import Tracing
@testable import SwiftDBAIMCP

/// The server span of each request, recorded by swift-distributed-tracing's in-memory tracer.
@Suite("OperationTracing: a server span per request, after the MCP conventions")
struct OperationTracingTests {
    static func tracing(_ tracer: InMemoryTracer) -> OperationTracing {
        OperationTracing(tracer: tracer, toolNames: ["query"], transport: "tcp", sessionID: "s-1", recordsSQLValues: false)
    }

    static func call(_ tool: String, meta: [String: Value]? = nil) -> [String: Value] {
        var params: [String: Value] = ["name": .string(tool), "arguments": [:]]
        if let meta { params["_meta"] = .object(meta) }
        return params
    }

    @Test("a tool call: its name, kind and attributes; no error on success")
    func toolCall() throws {
        let tracer = InMemoryTracer()
        Self.tracing(tracer).begin(ArrivingRequest(id: 7, method: "tools/call", params: Self.call("query"), protocolVersion: "2025-11-25"))
            .end(.success(["content": []]), responseBytes: 10)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "tools/call query")
        #expect(span.kind == .server)
        #expect(span.attributes["mcp.method.name"]?.toSpanAttribute() == "tools/call")
        #expect(span.attributes["gen_ai.tool.name"]?.toSpanAttribute() == "query")
        #expect(span.attributes["gen_ai.operation.name"]?.toSpanAttribute() == "execute_tool")
        #expect(span.attributes["jsonrpc.request.id"]?.toSpanAttribute() == "7")
        #expect(span.attributes["mcp.protocol.version"]?.toSpanAttribute() == "2025-11-25")
        #expect(span.attributes["mcp.session.id"]?.toSpanAttribute() == "s-1")
        #expect(span.attributes["network.transport"]?.toSpanAttribute() == "tcp")
        #expect(span.attributes["error.type"] == nil)
        #expect(span.status == nil)
    }

    @Test("a tool the server does not know is named in an attribute, not in the span's name; long names are cut")
    func unknownTool() throws {
        let tracer = InMemoryTracer()
        let long = String(repeating: "x", count: 5_000)
        Self.tracing(tracer).begin(ArrivingRequest(id: "a", method: "tools/call", params: Self.call(long)))
            .end(.success(["isError": true]), responseBytes: 10)
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "tools/call")
        #expect(span.attributes["gen_ai.tool.name"]?.toSpanAttribute() == .string(String(repeating: "x", count: 128)))
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "tool_error")
        #expect(span.status?.code == .error)
    }

    @Test("a JSON-RPC error: its code as error.type and rpc.response.status_code, its message as the status")
    func protocolError() throws {
        let tracer = InMemoryTracer()
        Self.tracing(tracer).begin(ArrivingRequest(id: 1, method: "nope", params: [:]))
            .end(.failure(ProtocolError.methodNotFound("nope", revision: "2025-11-25")), responseBytes: 10)
        Self.tracing(tracer).begin(ArrivingRequest(id: 2, method: "tools/call", params: Self.call("query")))
            .end(nil, responseBytes: 0)
        let spans = tracer.finishedSpans
        #expect(spans[0].attributes["error.type"]?.toSpanAttribute() == "-32601")
        #expect(spans[0].attributes["rpc.response.status_code"]?.toSpanAttribute() == "-32601")
        #expect(spans[0].status?.code == .error)
        #expect(spans[0].status?.message?.contains("nope") == true)
        #expect(spans[1].attributes["error.type"]?.toSpanAttribute() == "cancelled")
    }

    @Test("without a usable context in _meta, the ambient one (an HTTP header's) is the parent and nothing is linked")
    func ambientParent() async throws {
        // The parent from _meta, with the ambient context linked, is checked end to end with the
        // W3C propagator (Tests/e2e/test_telemetry.py); the in-memory tracer reads no traceparent.
        let tracer = InMemoryTracer()
        let transport = tracer.startSpan("HTTP POST")
        let tracing = Self.tracing(tracer)
        ServiceContext.withValue(transport.context) {
            tracing.begin(ArrivingRequest(id: 1, method: "tools/call", params: Self.call("query"))).end(.success([:]), responseBytes: 1)
            tracing.begin(ArrivingRequest(id: 2, method: "tools/call", params: Self.call("query", meta: ["traceparent": "junk"])))
                .end(.success([:]), responseBytes: 1)
        }
        for span in tracer.finishedSpans {
            #expect(span.traceID == transport.traceID && span.parentSpanID == transport.spanID)
            #expect(span.links.isEmpty)
        }
        #expect(tracer.performedContextExtractions.isEmpty, "a malformed traceparent is not handed to the propagator")
    }

    @Test("the handler runs with the request's span current: what it starts is its child")
    func current() async throws {
        let tracer = InMemoryTracer()
        let observed = Self.tracing(tracer).begin(ArrivingRequest(id: 1, method: "tools/call", params: Self.call("query")))
        _ = try await observed.during {
            tracer.startSpan("SELECT").end()
            return [:]
        }
        observed.end(.success([:]), responseBytes: 1)
        let spans = tracer.finishedSpans
        let server = try #require(spans.first { $0.operationName == "tools/call query" })
        let child = try #require(spans.first { $0.operationName == "SELECT" })
        #expect(child.parentSpanID == server.spanID && child.traceID == server.traceID)
    }
}

@Suite("RequestObserverList: each observer told, handlers nested")
struct RequestObserverListTests {
    @Test("none is nil, one is itself, several are all told in order")
    func combining() async throws {
        #expect(RequestObserverList.combining([]) == nil)
        let tracer = InMemoryTracer()
        let metrics = OperationMetrics(toolNames: ["query"])
        let tracing = OperationTracingTests.tracing(tracer)
        #expect(RequestObserverList.combining([tracing]) is OperationTracing)
        let both = try #require(RequestObserverList.combining([metrics, tracing]))
        let observed = both.begin(ArrivingRequest(id: 1, method: "ping", params: [:]))
        let inside = try await observed.during { ServiceContext.current == nil ? "no span" : "span" }
        observed.end(.success([:]), responseBytes: 1)
        #expect(inside == "span")
        #expect(tracer.finishedSpans.map(\.operationName) == ["ping"])
    }
}

@Suite("TraceCarrier: only a well-formed traceparent, and a tracestate of W3C size and shape, are read")
struct TraceCarrierTests {
    @Test("a well-formed traceparent is read; a later version as 00, from its first 55 characters")
    func wellFormed() {
        let version00 = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        #expect(TraceCarrier(traceparent: version00, tracestate: nil)?.traceparent == version00)
        #expect(TraceCarrier(traceparent: "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra", tracestate: nil)?.traceparent
            == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")
        #expect(String(describing: TraceCarrier(traceparent: version00, tracestate: "a=b")) == "Optional(TraceCarrier)")
    }

    @Test(
        "malformed ones are ignored",
        arguments: [
            "", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0", "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x", String(repeating: "0", count: 400),
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        ])
    func malformed(traceparent: String) {
        #expect(TraceCarrier(traceparent: traceparent, tracestate: "a=b") == nil)
    }

    @Test("a tracestate longer than 512 characters is dropped, the traceparent kept")
    func longTraceState() throws {
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        #expect(try #require(TraceCarrier(traceparent: traceparent, tracestate: "a=b")).tracestate == "a=b")
        #expect(try #require(TraceCarrier(traceparent: traceparent, tracestate: String(repeating: "a", count: 513))).tracestate == nil)
        #expect(try #require(TraceCarrier(traceparent: traceparent, tracestate: "a=b\nfake log line")).tracestate == nil)
        #expect(try #require(TraceCarrier(traceparent: traceparent, tracestate: "no-equals-sign")).tracestate == nil)
    }
}
