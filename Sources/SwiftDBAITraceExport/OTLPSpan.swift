import Foundation
import SwiftDBAI
import Tracing

/// A span of ``OTLPTracer``: recorded until it ends, then handed to the export queue once. A span
/// that is not sampled records nothing and is not exported; it still carries its context, so that
/// what runs under it (and a `traceparent` sent on) continues the trace.
///
/// Its state is behind a lock of its own rather than a ``Mutex``: `attributes` is changed in
/// place (`span.attributes["key"] = value` yields the stored attributes under the lock), where a
/// read and a write back would copy them on every change.
public final class OTLPSpan: Span, @unchecked Sendable {
    /// The context the span was started in; its own adds the span (made when first asked for:
    /// the spans of statements never are).
    private let parentContext: ServiceContext
    /// Sampled: recorded until it ends.
    private let records: Bool
    private let identity: SpanIdentity
    private let parentIsRemote: Bool
    private let kind: SpanKind
    private let start: UInt64
    private let queue: SpanExportQueue?
    private let lock = NSLock()
    private var state: State

    private struct State {
        var context: ServiceContext?
        var name: String
        var attributes = SpanAttributes()
        /// Attributes recorded as a list (``SpanAttributeListRecording``); moved into
        /// `attributes` when those are read or changed, so that a key is exported once.
        var attributeList: [(String, SpanAttribute)] = []
        var events: [SpanEvent] = []
        var links: [LinkedSpan] = []
        var status: SpanStatus?
        var ended = false

        /// Moves the list into `attributes`, in order: the list is always the newer (every change to
        /// `attributes` merges or clears it first), so the last value of a key wins.
        mutating func mergeList() {
            guard !attributeList.isEmpty else { return }
            for (key, value) in attributeList { attributes.set(key, value: value) }
            attributeList = []
        }
    }

    init(
        name: String, kind: SpanKind, context: ServiceContext, identity: SpanIdentity, parentIsRemote: Bool, start: UInt64,
        queue: SpanExportQueue?
    ) {
        self.parentContext = context
        self.identity = identity
        self.parentIsRemote = parentIsRemote
        self.kind = kind
        self.start = start
        self.queue = queue
        self.records = queue != nil
        self.state = State(name: name)
    }

    /// True while the span is sampled and has not ended.
    public var isRecording: Bool {
        records && !withLock { $0.ended }
    }

    /// The context the span was started in, with this span current in it.
    public var context: ServiceContext {
        withLock { state in
            if let context = state.context { return context }
            var context = parentContext
            context.spanIdentity = identity
            state.context = context
            return context
        }
    }

    /// The span's name; it may change until the span ends.
    public var operationName: String {
        get { withLock { $0.name } }
        set {
            guard records else { return }
            withLock { if !$0.ended { $0.name = newValue } }
        }
    }

    /// The span's attributes. `span.attributes[key] = value` changes them in place, under the
    /// span's lock, so the attributes must not be passed `inout` across an `await`.
    /// (`updateAttributes` reads them, then sets them whole.)
    public var attributes: SpanAttributes {
        get {
            withLock { state in
                state.mergeList()
                return state.attributes
            }
        }
        set {
            guard records else { return }
            withLock { state in
                guard !state.ended else { return }
                state.attributes = newValue
                state.attributeList = []
            }
        }
        _modify {
            lock.lock()
            defer { lock.unlock() }
            if records, !state.ended {
                state.mergeList()
                yield &state.attributes
            } else {
                var ignored = SpanAttributes()
                yield &ignored
            }
        }
    }

    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Sets the status; an `ok` one is final (the specification's rule).
    public func setStatus(_ status: SpanStatus) {
        guard records else { return }
        withLock { state in
            guard !state.ended, state.status?.code != .ok else { return }
            state.status = status
        }
    }

    /// Records an event (until the span ends).
    public func addEvent(_ event: SpanEvent) {
        guard records else { return }
        withLock { if !$0.ended { $0.events.append(event) } }
    }

    /// Records an `exception` event, with `exception.type` and `exception.message`.
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        guard records else { return }
        var attributes = attributes
        attributes["exception.type"] = String(describing: type(of: error))
        attributes["exception.message"] = String(describing: error)
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
    }

    /// Links the span current in `link.context`; a context without one is not linked.
    public func addLink(_ link: SpanLink) {
        guard records, let linked = link.context.spanIdentity else { return }
        withLock { if !$0.ended { $0.links.append(LinkedSpan(identity: linked, attributes: link.attributes)) } }
    }

    /// Ends the span (once: a later call changes nothing) and queues it for export.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        guard let queue else { return }
        let end = instant().nanosecondsSinceEpoch
        // What was recorded moves to the export queue (it is not read once the span has ended).
        let finished: FinishedSpan? = withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            // Both kinds used (or a key recorded twice): one value a key. The common case, only a
            // list, stays as it is.
            if !state.attributes.isEmpty { state.mergeList() }
            defer { (state.attributes, state.attributeList, state.events, state.links) = (SpanAttributes(), [], [], []) }
            return FinishedSpan(
                identity: identity, parentIsRemote: parentIsRemote, name: state.name, kind: kind, start: start,
                end: max(end, start), attributes: state.attributes, attributeList: state.attributeList, events: state.events,
                links: state.links, status: state.status)
        }
        if let finished { queue.enqueue(finished) }
    }
}

extension OTLPSpan: SpanAttributeListRecording {
    /// Adds `attributes` as they are (until the span ends): nothing hashed, nothing copied.
    package func record(_ attributes: [(String, SpanAttribute)]) {
        guard records else { return }
        withLock { state in
            guard !state.ended else { return }
            if state.attributeList.isEmpty { state.attributeList = attributes } else { state.attributeList += attributes }
        }
    }
}
