import Tracing

/// A span that takes attributes as a list, without a `SpanAttributes` dictionary being built for
/// them (each key hashed, the dictionary copied into the span): the package's exporter
/// (`OTLPSpan`) is one. The package's own spans on the hot path — a request's, a statement's —
/// record through it when their span is one, through `Span.attributes` otherwise.
///
/// A key recorded here is not also set through `attributes` (both would be exported).
package protocol SpanAttributeListRecording: Span {
    /// Adds `attributes` to the span's (until it ends).
    func record(_ attributes: [(String, SpanAttribute)])
}

extension Span {
    /// Records `attributes`: through ``SpanAttributeListRecording`` when `recorder` (this span, cast
    /// once by the caller) is one, else into `attributes`.
    package func record(_ attributes: [(String, SpanAttribute)], through recorder: (any SpanAttributeListRecording)?) {
        if let recorder {
            recorder.record(attributes)
            return
        }
        updateAttributes { current in
            for (key, value) in attributes { current.set(key, value: value) }
        }
    }
}
