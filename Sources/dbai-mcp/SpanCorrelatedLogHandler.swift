import Logging
import SwiftDBAITraceExport
import Tracing

/// swift-otel's OTLP log handler, given the current span: its records carry the span context
/// swift-otel keeps under a key of its own, which only its tracer sets. For each record written
/// under one of ``OTLPTracer``'s spans, that key is set from the span's `traceparent` first — at
/// the log's cost, not every span's.
struct SpanCorrelatedLogHandler: LogHandler {
    var exporting: any LogHandler
    /// Sets swift-otel's span context in a context (its tracer reading the span's `traceparent`).
    let correlate: @Sendable (inout ServiceContext, SpanIdentity) -> Void

    func log(event: LogEvent) {
        guard var context = ServiceContext.current, let identity = context.spanIdentity else {
            exporting.log(event: event)
            return
        }
        correlate(&context, identity)
        ServiceContext.withValue(context) { exporting.log(event: event) }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { exporting.metadataProvider }
        set { exporting.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { exporting[metadataKey: key] }
        set { exporting[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { exporting.metadata }
        set { exporting.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { exporting.logLevel }
        set { exporting.logLevel = newValue }
    }
}
