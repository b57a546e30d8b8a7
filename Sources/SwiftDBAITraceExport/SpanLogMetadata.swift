import Logging
import Tracing

extension Logger.MetadataProvider {
    /// The current span's `trace_id`, `span_id` and `trace_flags` in every log line written under
    /// it (the names swift-otel's provider uses); nothing outside a span.
    public static let spanIdentity = Logger.MetadataProvider {
        guard let identity = ServiceContext.current?.spanIdentity else { return [:] }
        return [
            "trace_id": .string(identity.traceIDText),
            "span_id": .string(identity.spanIDText),
            "trace_flags": .string(identity.isSampled ? "1" : "0"),
        ]
    }
}
