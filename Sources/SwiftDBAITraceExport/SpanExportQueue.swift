import Logging
import ServiceLifecycle
import SwiftDBAIPrimitives

/// The batch span processor: ended spans wait here and are sent in batches — when a batch is
/// full, every `scheduleDelay`, and what is left at a graceful shutdown. Past `maxQueueSize`
/// waiting spans, new ones are dropped (and the drop is logged), so a collector that does not
/// answer never grows the process.
public final class SpanExportQueue: Service, Sendable {
    /// `OTEL_BSP_*`: the batch span processor's settings.
    public struct Limits: Sendable, Equatable {
        /// `OTEL_BSP_SCHEDULE_DELAY`: how often what waits is sent.
        public var scheduleDelay: Duration = .seconds(5)
        /// `OTEL_BSP_EXPORT_TIMEOUT`: how long one batch may take, tries again included.
        public var exportTimeout: Duration = .seconds(30)
        /// `OTEL_BSP_MAX_QUEUE_SIZE`: the most spans waiting; more are dropped.
        public var maxQueueSize = 2_048
        /// `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`: the most spans in one request.
        public var maxExportBatchSize = 512

        /// The specification's defaults.
        public init() {}
    }

    let limits: Limits
    private let encoding: OTLPTraceEncoding
    private let sender: any SpanBatchSender
    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation
    private let logger = Logger(label: "dbai-mcp.otel")

    private struct State {
        /// The spans waiting, encoded one after the other (``OTLPTraceEncoding/encode(_:into:)``).
        var encoded: [UInt8] = []
        /// Where each waiting span ends in `encoded`.
        var ends: [Int] = []
        var dropped = 0
        /// True when the schedule (or a flush, or the shutdown) asked for every span waiting; a
        /// full batch alone sends only full batches, so that a steady stream is sent in big ones.
        var sendsAll = false
    }

    init(limits: Limits, encoding: OTLPTraceEncoding, sender: any SpanBatchSender) {
        self.limits = limits
        self.encoding = encoding
        self.sender = sender
        (wakes, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues an ended span, encoded now (the span's values are released with it); wakes the
    /// sender when a batch is full.
    func enqueue(_ span: FinishedSpan) {
        var bytes: [UInt8] = []
        OTLPTraceEncoding.encode(span, into: &bytes)
        let full = state.withLock { state in
            guard state.ends.count < limits.maxQueueSize else {
                state.dropped += 1
                return false
            }
            state.encoded += bytes
            state.ends.append(state.encoded.count)
            return state.ends.count == limits.maxExportBatchSize
        }
        if full { waker.yield() }
    }

    /// Sends what waits now, without waiting for the schedule.
    func wake() {
        state.withLock { $0.sendsAll = true }
        waker.yield()
    }

    /// Sends batches until a graceful shutdown, then what is left, and closes the connection.
    public func run() async throws {
        let (waker, delay) = (self.waker, limits.scheduleDelay)
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { [weak self] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: delay)
                        guard let self else { return }
                        self.wake()
                    }
                }
                for await _ in wakes { await exportWaiting() }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            waker.finish()
        }
        state.withLock { $0.sendsAll = true }
        await exportWaiting()
        await sender.shutdown()
    }

    /// Sends the spans waiting, a batch at a time: every one when asked to, else the full batches.
    private func exportWaiting() async {
        while true {
            let (batch, spans, dropped) = state.withLock { state in
                defer { state.dropped = 0 }
                guard !state.ends.isEmpty, state.sendsAll || state.ends.count >= limits.maxExportBatchSize else {
                    return ([UInt8](), 0, state.dropped)
                }
                let spans = min(state.ends.count, limits.maxExportBatchSize)
                let end = state.ends[spans - 1]
                let batch: [UInt8]
                if spans == state.ends.count {
                    batch = state.encoded
                    state.encoded = []
                    state.ends = []
                    state.sendsAll = false
                } else {
                    batch = Array(state.encoded[..<end])
                    state.encoded.removeFirst(end)
                    state.ends = state.ends[spans...].map { $0 - end }
                }
                return (batch, spans, state.dropped)
            }
            if dropped > 0 {
                logger.warning("OpenTelemetry: \(dropped) spans dropped, more than OTEL_BSP_MAX_QUEUE_SIZE (\(limits.maxQueueSize)) waited for the collector.")
            }
            guard spans > 0 else { return }
            await sender.send(encoding.request(encodedSpans: batch[...]), spans: spans, within: limits.exportTimeout)
        }
    }
}

/// Where batches of encoded spans go (the OTLP/HTTP endpoint; a test's recorder).
protocol SpanBatchSender: Sendable {
    /// Sends one request body of `spans` spans, giving up after `limit`; failures are logged.
    func send(_ body: [UInt8], spans: Int, within limit: Duration) async
    /// Closes what `send` opened.
    func shutdown() async
}
