import Tracing

/// The body of an OTLP/HTTP traces request (`ExportTraceServiceRequest`, protobuf), written
/// field by field: one resource, one instrumentation scope, the spans.
struct OTLPTraceEncoding: Sendable {
    /// The resource's attributes (`service.name` and `OTEL_RESOURCE_ATTRIBUTES`).
    let resource: [(key: String, value: String)]
    /// The instrumentation scope's name and version.
    let scopeName: String
    let scopeVersion: String

    /// The request of spans each encoded by ``encode(_:into:)``, one after the other.
    func request(encodedSpans: ArraySlice<UInt8>) -> [UInt8] {
        var writer = ProtobufWriter(capacity: 512 + encodedSpans.count)
        writer.message(1) { resourceSpans in  // ExportTraceServiceRequest.resource_spans
            resourceSpans.message(1) { resource in  // ResourceSpans.resource
                for (key, value) in self.resource { resource.keyValue(1, key: key, valueField: 1, text: value) }
            }
            resourceSpans.message(2) { scopeSpans in  // ResourceSpans.scope_spans
                scopeSpans.message(1) { scope in  // ScopeSpans.scope
                    scope.string(1, scopeName)
                    scope.string(2, scopeVersion)
                }
                encodedSpans.withUnsafeBytes { scopeSpans.raw($0) }
            }
        }
        return writer.bytes
    }

    /// Appends `span` to `bytes` as a `ScopeSpans.spans` field: its tag, its length, the message.
    static func encode(_ span: FinishedSpan, into bytes: inout [UInt8]) {
        var writer = ProtobufWriter(capacity: 1_024)
        writer.message(2) { Self.span(span, into: &$0) }
        writer.append(to: &bytes)
    }

    /// `opentelemetry.proto.trace.v1.Span`.
    private static func span(_ span: FinishedSpan, into writer: inout ProtobufWriter) {
        let identity = span.identity
        writer.bigEndian(1, identity.traceID.high, identity.traceID.low)
        writer.bigEndian(2, identity.spanID)
        writer.string(3, identity.traceState)
        if identity.parentSpanID != 0 { writer.bigEndian(4, identity.parentSpanID) }
        writer.string(5, span.name, always: true)
        writer.varint(6, kind(span.kind))
        writer.fixed64(7, span.start, always: true)
        writer.fixed64(8, span.end, always: true)
        for (key, value) in span.attributeList { attribute(key, value, field: 9, into: &writer) }
        attributes(span.attributes, field: 9, into: &writer)
        for event in span.events {
            writer.message(11) { writer in
                writer.fixed64(1, event.nanosecondsSinceEpoch, always: true)
                writer.string(2, event.name, always: true)
                attributes(event.attributes, field: 3, into: &writer)
            }
        }
        for link in span.links {
            writer.message(13) { writer in
                writer.bigEndian(1, link.identity.traceID.high, link.identity.traceID.low)
                writer.bigEndian(2, link.identity.spanID)
                writer.string(3, link.identity.traceState)
                attributes(link.attributes, field: 4, into: &writer)
                writer.fixed32(6, flags(sampled: link.identity.isSampled, remote: link.identity.isRemote))
            }
        }
        if let status = span.status {
            writer.message(15) { writer in
                // The specification keeps a status's description for errors.
                if status.code == .error, let message = status.message { writer.string(2, message) }
                writer.varint(3, status.code == .ok ? 1 : 2)
            }
        }
        // Span.flags: the trace flags, and whether the parent came from another process.
        writer.fixed32(16, flags(sampled: identity.isSampled, remote: span.parentIsRemote))
    }

    /// The W3C trace flags, with `SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE` and, when so, `…_IS_REMOTE`.
    private static func flags(sampled: Bool, remote: Bool) -> UInt32 {
        (sampled ? 0x1 : 0) | 0x100 | (remote ? 0x200 : 0)
    }

    /// `SpanKind`: INTERNAL 1, SERVER 2, CLIENT 3, PRODUCER 4, CONSUMER 5.
    private static func kind(_ kind: SpanKind) -> UInt64 {
        switch kind {
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        default: 1
        }
    }

    /// Repeated `KeyValue` fields; those of one string, integer or Boolean (nearly all) are written
    /// with their lengths counted first.
    private static func attributes(_ attributes: SpanAttributes, field: UInt32, into writer: inout ProtobufWriter) {
        attributes.forEach { key, value in attribute(key, value, field: field, into: &writer) }
    }

    /// One `KeyValue` field.
    private static func attribute(_ key: String, _ value: SpanAttribute, field: UInt32, into writer: inout ProtobufWriter) {
        switch value {
        case .string(let text): writer.keyValue(field, key: key, valueField: 1, text: text)
        case .int64(let number): writer.keyValue(field, key: key, valueField: 3, varint: UInt64(bitPattern: number))
        case .int32(let number): writer.keyValue(field, key: key, valueField: 3, varint: UInt64(bitPattern: Int64(number)))
        case .bool(let flag): writer.keyValue(field, key: key, valueField: 2, varint: flag ? 1 : 0)
        default:
            writer.message(field) { pair in
                pair.string(1, key, always: true)
                pair.message(2) { anyValue(value, into: &$0) }
            }
        }
    }

    /// `AnyValue`: string 1, bool 2, int 3, double 4, array 5.
    private static func anyValue(_ value: SpanAttribute, into writer: inout ProtobufWriter) {
        switch value {
        case .string(let text): writer.string(1, text, always: true)
        case .int64(let number): writer.integer(3, number)
        case .int32(let number): writer.integer(3, Int64(number))
        case .double(let number): writer.fixed64(4, number.bitPattern, always: true)
        case .bool(let flag): writer.boolean(2, flag)
        case .stringConvertible(let convertible): writer.string(1, convertible.description, always: true)
        case .stringArray(let texts): array(texts.map(SpanAttribute.string), into: &writer)
        case .int64Array(let numbers): array(numbers.map(SpanAttribute.int64), into: &writer)
        case .int32Array(let numbers): array(numbers.map(SpanAttribute.int32), into: &writer)
        case .doubleArray(let numbers): array(numbers.map(SpanAttribute.double), into: &writer)
        case .boolArray(let flags): array(flags.map(SpanAttribute.bool), into: &writer)
        case .stringConvertibleArray(let values): array(values.map { .string($0.description) }, into: &writer)
        default: writer.string(1, "\(value)", always: true)
        }
    }

    private static func array(_ values: [SpanAttribute], into writer: inout ProtobufWriter) {
        writer.message(5) { array in
            for value in values { array.message(1) { anyValue(value, into: &$0) } }
        }
    }
}
