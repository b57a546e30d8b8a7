import Tracing

/// A span that ended, as it is exported.
struct FinishedSpan: Sendable {
    /// Its own context; `parentSpanID` is zero for a root.
    var identity: SpanIdentity
    /// True when its parent came from another process.
    var parentIsRemote: Bool
    var name: String
    var kind: SpanKind
    /// Nanoseconds since 1970.
    var start: UInt64
    var end: UInt64
    var attributes: SpanAttributes
    /// Attributes recorded as a list (``SpanAttributeListRecording``), written before `attributes`.
    var attributeList: [(String, SpanAttribute)] = []
    var events: [SpanEvent]
    var links: [LinkedSpan]
    var status: SpanStatus?
}

/// A span another one links to: the linked span's identity and the link's attributes.
struct LinkedSpan: Sendable {
    var identity: SpanIdentity
    var attributes: SpanAttributes
}
