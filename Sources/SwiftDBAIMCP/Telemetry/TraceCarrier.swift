import Foundation
import Tracing

/// The W3C trace context a client sent (`traceparent`, `tracestate`; in `params._meta` or in
/// HTTP headers), checked before the propagator reads it: a `traceparent` of the standard shape
/// (`00-` 32 hexadecimal digits `-` 16 `-` 2, ids not all zeros), and a `tracestate` of at most
/// 512 printable characters in `key=value` entries (32 entries, as the W3C allows), dropped
/// otherwise. A malformed `traceparent` is ignored: the
/// request's span then starts from the ambient context, and nothing the client sent is logged.
package struct TraceCarrier: Sendable, CustomStringConvertible {
    package let traceparent: String
    package let tracestate: String?

    /// Reveals nothing of what the client sent (a propagator may log its carrier).
    package var description: String { "TraceCarrier" }

    /// The longest `tracestate` carried.
    static let maxTraceStateLength = 512

    /// The context in `traceparent` and `tracestate`; nil when `traceparent` is missing or malformed.
    package init?(traceparent: String?, tracestate: String?) {
        guard let traceparent, let usable = Self.usable(traceparent) else { return nil }
        self.traceparent = usable
        self.tracestate = tracestate.flatMap { Self.isUsable(tracestate: $0) ? $0 : nil }
    }

    /// Reads the context into `context` through `instrument` (the process's propagator).
    package func extract(into context: inout ServiceContext, using instrument: any Instrument) {
        instrument.extract(self, into: &context, using: Reader())
    }

    /// The `traceparent` the propagator can read, or nil: version `00` is exactly 55 characters
    /// (version, trace id, parent id, flags in lowercase hexadecimal, neither id all zeros); a
    /// later version is read as `00` from its first 55 characters, as the W3C asks; `ff` is invalid.
    static func usable(_ traceparent: String) -> String? {
        let bytes = Array(traceparent.utf8)
        guard bytes.count >= 55, bytes.count <= 256 else { return nil }
        let isHex = { (byte: UInt8) in (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) }
        for (index, byte) in bytes[..<55].enumerated() {
            let isDash = index == 2 || index == 35 || index == 52
            guard isDash ? byte == UInt8(ascii: "-") : isHex(byte) else { return nil }
        }
        let isZero = { (range: Range<Int>) in bytes[range].allSatisfy { $0 == UInt8(ascii: "0") } }
        guard !isZero(3..<35), !isZero(36..<52) else { return nil }
        let version = bytes[0..<2]
        if version.elementsEqual("00".utf8) { return bytes.count == 55 ? traceparent : nil }
        guard !version.elementsEqual("ff".utf8), bytes.count == 55 || bytes[55] == UInt8(ascii: "-") else { return nil }
        return "00" + String(decoding: bytes[2..<55], as: UTF8.self)
    }

    /// A `tracestate` of at most 512 printable ASCII characters, its entries `key=value`.
    static func isUsable(tracestate: String) -> Bool {
        let bytes = tracestate.utf8
        guard bytes.count <= maxTraceStateLength, bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return false }
        return tracestate.split(separator: ",").allSatisfy { entry in
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || (trimmed.contains("=") && !trimmed.hasPrefix("="))
        }
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
