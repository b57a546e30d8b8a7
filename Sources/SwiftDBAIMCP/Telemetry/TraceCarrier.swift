import Tracing

/// The W3C trace context a client sent (`traceparent`, `tracestate`; in `params._meta` or in
/// HTTP headers), checked before the propagator reads it: a `traceparent` of the standard shape
/// (`00-` 32 hexadecimal digits `-` 16 `-` 2), and a `tracestate` of at most 512 characters (32
/// entries, as the W3C allows), dropped when longer. A malformed `traceparent` is ignored: the
/// request's span then starts from the ambient context, and nothing the client sent is logged.
package struct TraceCarrier: Sendable {
    package let traceparent: String
    package let tracestate: String?

    /// The longest `tracestate` carried.
    static let maxTraceStateLength = 512

    /// The context in `traceparent` and `tracestate`; nil when `traceparent` is missing or malformed.
    package init?(traceparent: String?, tracestate: String?) {
        guard let traceparent, Self.isWellFormed(traceparent) else { return nil }
        self.traceparent = traceparent
        self.tracestate = tracestate.flatMap { $0.utf8.count <= Self.maxTraceStateLength ? $0 : nil }
    }

    /// Reads the context into `context` through `instrument` (the process's propagator).
    package func extract(into context: inout ServiceContext, using instrument: any Instrument) {
        instrument.extract(self, into: &context, using: Reader())
    }

    /// Version, trace id, parent id and flags, lowercase hexadecimal: 55 characters for version
    /// `00`; a later version may append fields after a `-`.
    static func isWellFormed(_ traceparent: String) -> Bool {
        let bytes = Array(traceparent.utf8)
        guard bytes.count == 55 || (bytes.count > 55 && bytes.count <= 256 && bytes[55] == UInt8(ascii: "-")) else { return false }
        let isHex = { (byte: UInt8) in (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) }
        for (index, byte) in bytes[..<55].enumerated() {
            let isDash = index == 2 || index == 35 || index == 52
            guard isDash ? byte == UInt8(ascii: "-") : isHex(byte) else { return false }
        }
        return !(bytes[0] == UInt8(ascii: "f") && bytes[1] == UInt8(ascii: "f"))
    }

    private struct Reader: Extractor {
        func extract(key: String, from carrier: TraceCarrier) -> String? {
            switch key {
            case "traceparent": carrier.traceparent
            case "tracestate": carrier.tracestate
            default: nil
            }
        }
    }
}
