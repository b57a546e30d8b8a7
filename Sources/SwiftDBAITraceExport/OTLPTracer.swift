import Tracing

/// A swift-distributed-tracing tracer that exports its spans over OTLP/HTTP (protobuf):
/// sampled by ``TraceSampler``, batched by ``SpanExportQueue``. Its context is the W3C trace
/// context (``SpanIdentity``), read from and written to `traceparent` and `tracestate`.
public struct OTLPTracer: Tracer {
    public typealias Span = OTLPSpan

    let sampler: TraceSampler
    /// Where ended spans wait to be sent: the service to run beside the server.
    public let queue: SpanExportQueue
    /// False when `OTEL_PROPAGATORS` is `none`: no context is read from or written to carriers.
    let propagates: Bool
    /// A tracer that samples with `sampler` and hands its ended spans to `queue`; `propagates`
    /// false reads and writes no `traceparent`.
    public init(sampler: TraceSampler, queue: SpanExportQueue, propagates: Bool = true) {
        self.sampler = sampler
        self.queue = queue
        self.propagates = propagates
    }

    /// The tracer the settings describe, posting to their endpoint; run ``queue`` (a service)
    /// beside the server, and shut it down gracefully to send the last spans.
    ///
    /// - Throws: NIOSSL's error for a certificate or key file that cannot be used.
    public init(settings: TraceExportSettings, scope: (name: String, version: String)) throws {
        let encoding = OTLPTraceEncoding(resource: settings.resource, scopeName: scope.name, scopeVersion: scope.version)
        let queue = SpanExportQueue(limits: settings.limits, encoding: encoding, sender: try OTLPHTTPSender(settings: settings))
        self.init(sampler: settings.sampler, queue: queue, propagates: settings.propagates)
    }

    /// Starts a span in `context`: a child of the span current there (same trace, its sampling
    /// decision when the sampler is parent-based), else the root of a new trace.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTLPSpan {
        let context = context()
        let parent = context.spanIdentity
        var generator = SystemRandomNumberGenerator()
        let traceID = parent?.traceID ?? Self.nonZero((generator.next(), generator.next()))
        let sampled = sampler.samples(traceID: traceID, parent: parent)
        let identity = SpanIdentity(
            traceID: traceID, spanID: Self.nonZero(generator.next()), parentSpanID: parent?.spanID ?? 0, isSampled: sampled,
            traceState: parent?.traceState ?? "")
        return OTLPSpan(
            name: operationName, kind: kind, context: context, identity: identity, parentIsRemote: parent?.isRemote ?? false,
            start: instant().nanosecondsSinceEpoch, queue: sampled ? queue : nil)
    }

    /// Sends the spans waiting now, without waiting for the schedule.
    public func forceFlush() {
        queue.wake()
    }

    /// Reads the caller's `traceparent` (and `tracestate`) into `context`; a malformed one is
    /// ignored.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard propagates, let traceparent = extractor.extract(key: "traceparent", from: carrier),
              let identity = SpanIdentity(traceparent: traceparent, tracestate: extractor.extract(key: "tracestate", from: carrier))
        else { return }
        context.spanIdentity = identity
    }

    /// Writes the current span's `traceparent` (and `tracestate`) for the next hop.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard propagates, let identity = context.spanIdentity else { return }
        injector.inject(identity.traceparent, forKey: "traceparent", into: &carrier)
        if !identity.traceState.isEmpty { injector.inject(identity.traceState, forKey: "tracestate", into: &carrier) }
    }

    private static func nonZero(_ id: (UInt64, UInt64)) -> (high: UInt64, low: UInt64) {
        id == (0, 0) ? (0, 1) : id
    }

    private static func nonZero(_ id: UInt64) -> UInt64 {
        id == 0 ? 1 : id
    }
}
