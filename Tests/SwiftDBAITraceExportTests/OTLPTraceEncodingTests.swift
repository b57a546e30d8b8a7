import Testing
import Tracing

@testable import SwiftDBAITraceExport

@Suite("OTLPTraceEncoding: an ExportTraceServiceRequest in protobuf")
struct OTLPTraceEncodingTests {
    typealias Reader = ProtobufReader

    static func span(attributes: [String: SpanAttribute] = [:], status: SpanStatus? = nil, parent: UInt64 = 0x1122) -> FinishedSpan {
        FinishedSpan(
            identity: SpanIdentity(
                traceID: (0x4bf9_2f35_77b3_4da6, 0xa3ce_929d_0e0e_4736), spanID: 0x00f0_67aa_0ba9_02b7, parentSpanID: parent,
                isSampled: true, traceState: "rojo=1"),
            parentIsRemote: true, name: "tools/call query", kind: .server, start: 1_000, end: 2_500, attributes: SpanAttributes(attributes),
            events: [], links: [], status: status)
    }

    /// The attributes of a list of `KeyValue` messages, each value as its field and bytes.
    static func attributes(_ pairs: [[UInt8]]) throws -> [String: (field: Int, value: Reader.Value)] {
        var found: [String: (Int, Reader.Value)] = [:]
        for pair in pairs {
            let key = try #require(try Reader.string(1, in: pair))
            let any = try Reader.fields(try Reader.message(2, in: pair))
            #expect(any.count == 1)
            found[key] = (any[0].field, any[0].value)
        }
        return found
    }

    @Test("one resource with its attributes, one scope, and each span's fields")
    func request() throws {
        let encoding = OTLPTraceEncoding(resource: [("service.name", "dbai-mcp"), ("team", "db")], scopeName: "dbai-mcp", scopeVersion: "0.1.0")
        let spans = [
            Self.span(attributes: [
                "mcp.method.name": .string("tools/call"), "db.response.returned_rows": .int64(3), "ok": .bool(true), "ratio": .double(0.5),
                "list": .stringArray(["a", "b"]),
            ],
                      status: SpanStatus(code: .error, message: "bad")),
            Self.span(parent: 0),
        ]
        let bytes = encoding.request(spans)
        let resourceSpans = try Reader.message(1, in: bytes)
        let resource = try Reader.message(1, in: resourceSpans)
        let resourceAttributes = try Self.attributes(try Reader.messages(1, in: resource))
        #expect(resourceAttributes["service.name"]?.value == .bytes(Array("dbai-mcp".utf8)))
        #expect(resourceAttributes["team"]?.value == .bytes(Array("db".utf8)))
        let scopeSpans = try Reader.message(2, in: resourceSpans)
        let scope = try Reader.message(1, in: scopeSpans)
        #expect(try Reader.string(1, in: scope) == "dbai-mcp")
        #expect(try Reader.string(2, in: scope) == "0.1.0")
        let encoded = try Reader.messages(2, in: scopeSpans)
        #expect(encoded.count == 2)

        let first = encoded[0]
        #expect(try Reader.message(1, in: first) == [0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36])
        #expect(try Reader.message(2, in: first) == [0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7])
        #expect(try Reader.string(3, in: first) == "rojo=1")
        #expect(try Reader.message(4, in: first) == [0, 0, 0, 0, 0, 0, 0x11, 0x22])
        #expect(try Reader.string(5, in: first) == "tools/call query")
        #expect(try Reader.all(6, in: first) == [.varint(2)])
        #expect(try Reader.all(7, in: first) == [.fixed64(1_000)])
        #expect(try Reader.all(8, in: first) == [.fixed64(2_500)])
        #expect(try Reader.all(16, in: first) == [.fixed32(0x301)])
        let attributes = try Self.attributes(try Reader.messages(9, in: first))
        #expect(attributes["mcp.method.name"]?.field == 1 && attributes["mcp.method.name"]?.value == .bytes(Array("tools/call".utf8)))
        #expect(attributes["db.response.returned_rows"]?.field == 3 && attributes["db.response.returned_rows"]?.value == .varint(3))
        #expect(attributes["ok"]?.field == 2 && attributes["ok"]?.value == .varint(1))
        #expect(attributes["ratio"]?.field == 4 && attributes["ratio"]?.value == .fixed64(0.5.bitPattern))
        guard case .bytes(let array)? = attributes["list"]?.value else { Issue.record("no array"); return }
        #expect(try Reader.messages(1, in: array).map { try Reader.string(1, in: $0) } == ["a", "b"])
        let status = try Reader.message(15, in: first)
        #expect(try Reader.string(2, in: status) == "bad")
        #expect(try Reader.all(3, in: status) == [.varint(2)])

        let root = encoded[1]
        #expect(try Reader.all(4, in: root).isEmpty, "a root has no parent_span_id")
        #expect(try Reader.all(15, in: root).isEmpty, "no status when none was set")
    }

    @Test("events and links carry their own fields")
    func eventsAndLinks() throws {
        var span = Self.span()
        span.events = [SpanEvent(name: "exception", at: DefaultTracerClock.now, attributes: ["exception.type": "E"])]
        span.links = [LinkedSpan(identity: SpanIdentity(traceID: (1, 2), spanID: 3, isSampled: false, isRemote: true), attributes: ["why": "http"])]
        let bytes = OTLPTraceEncoding(resource: [], scopeName: "s", scopeVersion: "").request([span])
        let encoded = try Reader.message(2, in: try Reader.message(2, in: try Reader.message(1, in: bytes)))
        let event = try Reader.message(11, in: encoded)
        #expect(try Reader.string(2, in: event) == "exception")
        #expect(try Self.attributes(try Reader.messages(3, in: event))["exception.type"]?.value == .bytes(Array("E".utf8)))
        let link = try Reader.message(13, in: encoded)
        #expect(try Reader.message(1, in: link) == [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2])
        #expect(try Reader.message(2, in: link) == [0, 0, 0, 0, 0, 0, 0, 3])
        #expect(try Reader.all(6, in: link) == [.fixed32(0x300)])
        #expect(try Self.attributes(try Reader.messages(4, in: link))["why"]?.value == .bytes(Array("http".utf8)))
    }
}

extension OTLPTraceEncoding {
    /// The request of `spans`, each encoded as the export queue does.
    func request(_ spans: some Sequence<FinishedSpan>) -> [UInt8] {
        var encoded: [UInt8] = []
        for span in spans { Self.encode(span, into: &encoded) }
        return request(encodedSpans: encoded[...])
    }
}
