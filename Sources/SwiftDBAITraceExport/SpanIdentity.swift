import Tracing

/// What identifies a span and travels with it (the W3C trace context): its trace, its own id,
/// its parent's, whether it is sampled, the vendors' `tracestate`, and whether it came from
/// another process.
public struct SpanIdentity: Sendable, Hashable {
    /// The 16 bytes of the trace id, as two big-endian halves; never both zero.
    public var traceID: (high: UInt64, low: UInt64) {
        get { (traceHigh, traceLow) }
        set { (traceHigh, traceLow) = newValue }
    }
    private var traceHigh: UInt64
    private var traceLow: UInt64
    /// The span's own id; never zero.
    public var spanID: UInt64
    /// The parent span's id; zero for a root.
    public var parentSpanID: UInt64
    /// The `sampled` flag: the span is recorded and exported.
    public var isSampled: Bool
    /// The `tracestate` header's value, as received; empty when there was none.
    public var traceState: String
    /// True when the context was read from a caller (`traceparent`), not made here.
    public var isRemote: Bool

    /// An identity from its parts.
    public init(
        traceID: (high: UInt64, low: UInt64), spanID: UInt64, parentSpanID: UInt64 = 0, isSampled: Bool, traceState: String = "",
        isRemote: Bool = false
    ) {
        (traceHigh, traceLow) = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.isSampled = isSampled
        self.traceState = traceState
        self.isRemote = isRemote
    }

    /// The trace id in the 32 lowercase hexadecimal digits of `traceparent`.
    public var traceIDText: String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            Self.writeHex(traceHigh, into: buffer, at: 0)
            Self.writeHex(traceLow, into: buffer, at: 16)
            return 32
        }
    }

    /// The span id in 16 lowercase hexadecimal digits.
    public var spanIDText: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            Self.writeHex(spanID, into: buffer, at: 0)
            return 16
        }
    }

    /// The `traceparent` header of this span: `00-{trace}-{span}-{flags}`.
    public var traceparent: String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            let dash = UInt8(ascii: "-"), zero = UInt8(ascii: "0")
            (buffer[0], buffer[1], buffer[2]) = (zero, zero, dash)
            Self.writeHex(traceHigh, into: buffer, at: 3)
            Self.writeHex(traceLow, into: buffer, at: 19)
            buffer[35] = dash
            Self.writeHex(spanID, into: buffer, at: 36)
            (buffer[52], buffer[53], buffer[54]) = (dash, zero, isSampled ? UInt8(ascii: "1") : zero)
            return 55
        }
    }

    /// Reads a `traceparent` header (version 00, or a later one read as 00 from its first 55
    /// characters, as the W3C asks); nil when it is malformed, version `ff`, or an id is zero.
    public init?(traceparent: String, tracestate: String?) {
        let bytes = Array(traceparent.utf8)
        guard bytes.count >= 55, let version = Self.number(bytes[0..<2]), version != 0xff else { return nil }
        if version == 0 {
            guard bytes.count == 55 else { return nil }
        } else if bytes.count > 55, bytes[55] != UInt8(ascii: "-") {
            return nil
        }
        guard bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"), bytes[52] == UInt8(ascii: "-"),
              let high = Self.number(bytes[3..<19]), let low = Self.number(bytes[19..<35]),
              let span = Self.number(bytes[36..<52]), let flags = Self.number(bytes[53..<55]),
              high != 0 || low != 0, span != 0
        else { return nil }
        self.init(
            traceID: (high, low), spanID: span, isSampled: flags & 1 == 1, traceState: tracestate ?? "", isRemote: true)
    }

    /// Writes the 16 lowercase hexadecimal digits of `value` (zero-padded) from `start`.
    private static func writeHex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xf
            buffer[start + index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }

    /// The number written in lowercase hexadecimal digits (the W3C allows no other); nil otherwise.
    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        return value
    }
}

extension ServiceContext {
    /// The span current in this context (made here, or read from a caller's `traceparent`).
    public var spanIdentity: SpanIdentity? {
        get { self[SpanIdentityKey.self] }
        set { self[SpanIdentityKey.self] = newValue }
    }

    private enum SpanIdentityKey: ServiceContextKey {
        typealias Value = SpanIdentity
        static var nameOverride: String? { "otel-span-context" }
    }
}
