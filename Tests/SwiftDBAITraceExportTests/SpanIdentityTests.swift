import Testing

@testable import SwiftDBAITraceExport

@Suite("SpanIdentity: the W3C trace context")
struct SpanIdentityTests {
    static let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let parent = "00f067aa0ba902b7"

    @Test("a version-00 traceparent is read, and written back the same")
    func roundTrip() throws {
        let identity = try #require(SpanIdentity(traceparent: "00-\(Self.trace)-\(Self.parent)-01", tracestate: "rojo=1"))
        #expect(identity.traceIDText == Self.trace && identity.spanIDText == Self.parent)
        #expect(identity.isSampled && identity.isRemote && identity.traceState == "rojo=1")
        #expect(identity.traceparent == "00-\(Self.trace)-\(Self.parent)-01")
        let unsampled = try #require(SpanIdentity(traceparent: "00-\(Self.trace)-\(Self.parent)-02", tracestate: nil))
        #expect(!unsampled.isSampled && unsampled.traceState == "")
    }

    @Test("a later version is read from its first 55 characters")
    func laterVersion() throws {
        let identity = try #require(SpanIdentity(traceparent: "01-\(Self.trace)-\(Self.parent)-01-what-comes-next", tracestate: nil))
        #expect(identity.traceIDText == Self.trace)
        #expect(SpanIdentity(traceparent: "01-\(Self.trace)-\(Self.parent)-01", tracestate: nil) != nil)
    }

    @Test("what the W3C refuses is not read", arguments: [
        "00-\(trace)-\(parent)-01-extra",  // version 00 has exactly 55 characters
        "ff-\(trace)-\(parent)-01",  // version ff is invalid
        "00-\(trace.uppercased())-\(parent)-01",  // lowercase only
        "00-00000000000000000000000000000000-\(parent)-01",
        "00-\(trace)-0000000000000000-01",
        "00-\(trace)-\(parent)-0",
        "00_\(trace)-\(parent)-01",
        "01-\(trace)-\(parent)-01x",
        "", "00", "not a traceparent at all, but long enough to be 55 characters",
    ])
    func refused(traceparent: String) {
        #expect(SpanIdentity(traceparent: traceparent, tracestate: nil) == nil)
    }

    @Test("ids are written in 16 lowercase digits each, zero-padded")
    func hexadecimal() {
        let identity = SpanIdentity(traceID: (0, 0xab), spanID: 0x1, isSampled: false)
        #expect(identity.traceIDText == "000000000000000000000000000000ab")
        #expect(identity.traceparent == "00-000000000000000000000000000000ab-0000000000000001-00")
    }
}

@Suite("TraceSampler: OTEL_TRACES_SAMPLER")
struct TraceSamplerTests {
    static let sampledParent = SpanIdentity(traceID: (1, 1), spanID: 1, isSampled: true, isRemote: true)
    static let unsampledParent = SpanIdentity(traceID: (1, 1), spanID: 1, isSampled: false, isRemote: true)

    @Test("the names of the specification, parentbased_always_on by default; others are refused")
    func names() {
        #expect(TraceSampler(name: nil, argument: nil) == .parentBased(root: .alwaysOn))
        #expect(TraceSampler(name: "always_off", argument: nil) == .alwaysOff)
        #expect(TraceSampler(name: "traceidratio", argument: "0.25") == .traceIDRatio(0.25))
        #expect(TraceSampler(name: "parentbased_traceidratio", argument: "2") == .parentBased(root: .traceIDRatio(1)))
        #expect(TraceSampler(name: "traceidratio", argument: "nan") == .traceIDRatio(1))
        #expect(TraceSampler(name: "jaeger_remote", argument: nil) == nil)
    }

    @Test("a parent-based sampler follows the parent, and its root sampler decides without one")
    func parentBased() {
        let sampler = TraceSampler.parentBased(root: .alwaysOff)
        #expect(sampler.samples(traceID: (1, 1), parent: Self.sampledParent))
        #expect(!sampler.samples(traceID: (1, 1), parent: Self.unsampledParent))
        #expect(!sampler.samples(traceID: (1, 1), parent: nil))
        #expect(!TraceSampler.alwaysOff.samples(traceID: (1, 1), parent: Self.sampledParent))
        #expect(TraceSampler.alwaysOn.samples(traceID: (1, 1), parent: Self.unsampledParent))
    }

    @Test("a ratio keeps the traces whose id's low half is under its share of the range, about its share of random ones")
    func ratio() {
        // At 0.5 the threshold is 2^63: the decision depends on the id alone.
        #expect(TraceSampler.traceIDRatio(0.5).samples(traceID: (7, (1 << 63) - 2_048), parent: nil))
        #expect(!TraceSampler.traceIDRatio(0.5).samples(traceID: (7, 1 << 63), parent: nil))
        #expect(!TraceSampler.traceIDRatio(0.25).samples(traceID: (0, 1 << 62), parent: nil))
        #expect(TraceSampler.traceIDRatio(0.25).samples(traceID: (0, (1 << 62) - 2_048), parent: nil))
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<20_000).map { _ in (high: generator.next() as UInt64, low: generator.next() as UInt64) }
        let kept = ids.filter { TraceSampler.traceIDRatio(0.1).samples(traceID: $0, parent: nil) }.count
        #expect((1_600...2_400).contains(kept))
        #expect(ids.allSatisfy { !TraceSampler.traceIDRatio(0).samples(traceID: $0, parent: nil) })
        #expect(ids.allSatisfy { TraceSampler.traceIDRatio(1).samples(traceID: $0, parent: nil) })
    }
}
