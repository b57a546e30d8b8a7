import Logging
import ServiceLifecycle
import SwiftDBAI
import SwiftDBAIPrimitives
import Testing
import Tracing

@testable import SwiftDBAITraceExport

/// Keeps what would have been posted.
final class RecordingSender: SpanBatchSender {
    private let state = Mutex((bodies: [[UInt8]](), counts: [Int](), shutDown: false))

    var counts: [Int] { state.withLock { $0.counts } }
    var bodies: [[UInt8]] { state.withLock { $0.bodies } }
    var isShutDown: Bool { state.withLock { $0.shutDown } }

    func send(_ body: [UInt8], spans: Int, within limit: Duration) async {
        state.withLock {
            $0.bodies.append(body)
            $0.counts.append(spans)
        }
    }

    func shutdown() async {
        state.withLock { $0.shutDown = true }
    }

    /// The names of the spans sent, in order.
    func names() throws -> [String] {
        try bodies.flatMap { body in
            let scopeSpans = try ProtobufReader.message(2, in: try ProtobufReader.message(1, in: body))
            return try ProtobufReader.messages(2, in: scopeSpans).map { try ProtobufReader.string(5, in: $0) ?? "" }
        }
    }
}

@Suite("OTLPTracer: spans, their context, and the export queue")
struct OTLPTracerTests {
    static func tracer(
        sampler: TraceSampler = .parentBased(root: .alwaysOn), limits: SpanExportQueue.Limits = SpanExportQueue.Limits(), propagates: Bool = true
    ) -> (OTLPTracer, RecordingSender) {
        let sender = RecordingSender()
        let queue = SpanExportQueue(limits: limits, encoding: OTLPTraceEncoding(resource: [], scopeName: "test", scopeVersion: ""), sender: sender)
        return (OTLPTracer(sampler: sampler, queue: queue, propagates: propagates), sender)
    }

    struct DictionaryCarrier: Extractor, Injector {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    @Test("a child continues its parent's trace; a root starts a new one")
    func parentAndChild() throws {
        let (tracer, _) = Self.tracer()
        let root = tracer.startSpan("root", context: .topLevel, ofKind: .server)
        let child = tracer.startSpan("child", context: root.context, ofKind: .client)
        let rootIdentity = try #require(root.context.spanIdentity)
        let childIdentity = try #require(child.context.spanIdentity)
        #expect(rootIdentity.parentSpanID == 0 && rootIdentity.isSampled)
        #expect(childIdentity.traceIDText == rootIdentity.traceIDText)
        #expect(childIdentity.parentSpanID == rootIdentity.spanID && childIdentity.spanID != rootIdentity.spanID)
        let other = tracer.startSpan("other", context: .topLevel, ofKind: .server)
        #expect(other.context.spanIdentity?.traceIDText != rootIdentity.traceIDText)
    }

    @Test("a span ends once: what is set after is not kept, and it is queued once")
    func endsOnce() async throws {
        let (tracer, sender) = Self.tracer()
        let span = tracer.startSpan("first", context: .topLevel, ofKind: .server)
        span.attributes["kept"] = "yes"
        span.setStatus(SpanStatus(code: .ok))
        span.setStatus(SpanStatus(code: .error, message: "after ok"))
        span.end()
        span.attributes["late"] = "no"
        span.operationName = "renamed"
        span.end()
        #expect(!span.isRecording)
        tracer.forceFlush()
        try await Self.running(tracer.queue) {
            try await Self.eventually { sender.counts == [1] }
        }
        #expect(try sender.names() == ["first"])
        let encoded = try ProtobufReader.message(2, in: try ProtobufReader.message(2, in: try ProtobufReader.message(1, in: sender.bodies[0])))
        let keys = try ProtobufReader.messages(9, in: encoded).map { try ProtobufReader.string(1, in: $0) }
        #expect(keys == ["kept"])
        #expect(try ProtobufReader.all(3, in: try ProtobufReader.message(15, in: encoded)) == [.varint(1)])
    }

    @Test("attributes recorded as a list are exported once each, with those set through `attributes`, the last value of a key winning; reading or changing them merges the list in")
    func attributeList() async throws {
        let (tracer, sender) = Self.tracer()
        let listed = tracer.startSpan("listed", context: .topLevel, ofKind: .client)
        listed.record([("db.system.name", .string("sqlite")), ("db.response.returned_rows", .int64(3))])
        listed.attributes["error.type"] = "invalid_sql"
        #expect(listed.attributes.get("db.system.name") == .string("sqlite") && listed.attributes.count == 3)
        listed.record([("late", .bool(true))])
        listed.end()
        let newer = tracer.startSpan("newer", context: .topLevel, ofKind: .client)
        newer.attributes["k"] = "old"
        newer.record([("k", .string("new")), ("once", .int64(1)), ("once", .int64(2))])
        newer.end()
        let replaced = tracer.startSpan("replaced", context: .topLevel, ofKind: .client)
        replaced.record([("gone", .string("x"))])
        replaced.attributes = ["kept": "y"]
        replaced.end()
        try await Self.running(tracer.queue) {}
        let scopeSpans = try ProtobufReader.message(2, in: try ProtobufReader.message(1, in: sender.bodies[0]))
        let spans = try ProtobufReader.messages(2, in: scopeSpans)
        let keys = try spans.map { span in try ProtobufReader.messages(9, in: span).map { try ProtobufReader.string(1, in: $0) ?? "" }.sorted() }
        #expect(keys == [["db.response.returned_rows", "db.system.name", "error.type", "late"], ["k", "once"], ["kept"]])
        let newerValues = try ProtobufReader.messages(9, in: spans[1]).map { pair in
            try ProtobufReader.fields(try ProtobufReader.message(2, in: pair))[0].value
        }
        #expect(newerValues.contains(.bytes(Array("new".utf8))) && newerValues.contains(.varint(2)), "the last value of a key wins")
    }

    @Test("a span not sampled records nothing but still carries the trace")
    func unsampled() async throws {
        let (tracer, sender) = Self.tracer(sampler: .parentBased(root: .alwaysOff))
        let span = tracer.startSpan("dropped", context: .topLevel, ofKind: .server)
        #expect(!span.isRecording)
        span.attributes["x"] = 1
        #expect(span.attributes.count == 0)
        let child = tracer.startSpan("child", context: span.context, ofKind: .client)
        #expect(child.context.spanIdentity?.traceIDText == span.context.spanIdentity?.traceIDText)
        #expect(child.context.spanIdentity?.isSampled == false)
        child.end()
        span.end()
        try await Self.running(tracer.queue) {}
        #expect(sender.counts.isEmpty)
    }

    @Test("the caller's traceparent is the parent; the span's own is written for the next hop")
    func propagation() throws {
        let (tracer, _) = Self.tracer()
        var context = ServiceContext.topLevel
        tracer.extract(
            ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "rojo=1"], into: &context,
            using: DictionaryCarrier())
        let span = tracer.startSpan("served", context: context, ofKind: .server)
        let identity = try #require(span.context.spanIdentity)
        #expect(identity.traceIDText == "4bf92f3577b34da6a3ce929d0e0e4736" && identity.parentSpanID == 0x00f0_67aa_0ba9_02b7)
        var carrier: [String: String] = [:]
        tracer.inject(span.context, into: &carrier, using: DictionaryCarrier())
        #expect(carrier == ["traceparent": identity.traceparent, "tracestate": "rojo=1"])

        let (silent, _) = Self.tracer(propagates: false)
        var untouched = ServiceContext.topLevel
        silent.extract(["traceparent": identity.traceparent], into: &untouched, using: DictionaryCarrier())
        #expect(untouched.spanIdentity == nil)
        var nothing: [String: String] = [:]
        silent.inject(span.context, into: &nothing, using: DictionaryCarrier())
        #expect(nothing.isEmpty)
    }

    @Test("a full batch is sent at once, without waiting for the schedule")
    func fullBatch() async throws {
        var limits = SpanExportQueue.Limits()
        limits.scheduleDelay = .seconds(3_600)
        limits.maxExportBatchSize = 3
        let (tracer, sender) = Self.tracer(limits: limits)
        try await Self.running(tracer.queue) {
            for number in 0..<3 { tracer.startSpan("s\(number)", context: .topLevel, ofKind: .server).end() }
            try await Self.eventually { sender.counts == [3] }
        }
        #expect(try sender.names() == ["s0", "s1", "s2"])
    }

    @Test("past the queue's size spans are dropped; what waits is sent at shutdown, in batches")
    func dropsAndShutdown() async throws {
        var limits = SpanExportQueue.Limits()
        limits.scheduleDelay = .seconds(3_600)
        limits.maxQueueSize = 6
        limits.maxExportBatchSize = 4
        let (tracer, sender) = Self.tracer(limits: limits)
        for number in 0..<8 { tracer.startSpan("s\(number)", context: .topLevel, ofKind: .server).end() }
        try await Self.running(tracer.queue) {}
        #expect(sender.counts.reduce(0, +) == 6 && sender.counts.allSatisfy { $0 <= 4 })
        #expect(try sender.names() == ["s0", "s1", "s2", "s3", "s4", "s5"])
        #expect(sender.isShutDown)
    }

    /// Runs the queue as a service while `body` runs, then shuts it down gracefully and waits.
    static func running(_ queue: SpanExportQueue, _ body: () async throws -> Void) async throws {
        let group = ServiceGroup(services: [queue], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        try await body()
        await group.triggerGracefulShutdown()
        try await running.value
    }

    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
