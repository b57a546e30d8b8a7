import Foundation
import Logging
import MCP

/// Wraps a transport so that the end of input does not cut off requests still running.
///
/// The SDK's server stops reading when input ends, and the process would exit before the
/// responses of requests already received are written (`printf '…' | dbai-mcp` would lose
/// them). This transport remembers which client requests are unanswered and finishes its
/// message stream only once every one has its response, or after a grace period (a request
/// waiting for a user who is gone never completes).
actor DrainingTransport: Transport {
    nonisolated let logger: Logger
    private let inner: any Transport
    private let gracePeriod: Duration
    private var unanswered: Set<ID> = []
    private var drained: [CheckedContinuation<Void, Never>] = []

    init(_ inner: any Transport, gracePeriod: Duration, logger: Logger) {
        self.inner = inner
        self.logger = logger
        self.gracePeriod = gracePeriod
    }

    func connect() async throws {
        try await inner.connect()
    }

    func disconnect() async {
        await inner.disconnect()
    }

    func send(_ data: Data) async throws {
        try await inner.send(data)
        for envelope in Envelope.decode(data) where envelope.isResponse {
            if let id = envelope.id { unanswered.remove(id) }
        }
        if unanswered.isEmpty { resumeDrained() }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let task = Task {
            do {
                for try await message in await inner.receive() {
                    await received(message)
                    continuation.yield(message)
                }
                await waitForResponses()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func received(_ message: Data) {
        for envelope in Envelope.decode(message) {
            if envelope.isRequest, let id = envelope.id {
                unanswered.insert(id)
            } else if let cancelled = envelope.cancelledRequestID {
                // A cancelled request gets no response.
                unanswered.remove(cancelled)
            }
        }
        if unanswered.isEmpty { resumeDrained() }
    }

    /// Returns when every request received has been answered, or after the grace period.
    private func waitForResponses() async {
        guard !unanswered.isEmpty else { return }
        logger.debug("Input ended; waiting for \(unanswered.count) response(s)")
        let timer = Task { [gracePeriod] in
            try await Task.sleep(for: gracePeriod)
            self.resumeDrained()
        }
        await withCheckedContinuation { drained.append($0) }
        timer.cancel()
    }

    private func resumeDrained() {
        let waiting = drained
        drained.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    /// The fields of a JSON-RPC message that tell a request from a response.
    private struct Envelope: Decodable {
        var id: ID?
        var hasMethod: Bool
        var hasOutcome: Bool
        /// The request a `notifications/cancelled` cancels.
        var cancelledRequestID: ID?

        var isRequest: Bool { id != nil && hasMethod }
        var isResponse: Bool { id != nil && !hasMethod && hasOutcome }

        enum CodingKeys: String, CodingKey {
            case id, method, result, error, params
        }

        struct CancelledParameters: Decodable {
            var requestId: ID?
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decodeIfPresent(ID.self, forKey: .id)
            hasMethod = container.contains(.method)
            hasOutcome = container.contains(.result) || container.contains(.error)
            if id == nil, (try? container.decode(String.self, forKey: .method)) == CancelledNotification.name {
                cancelledRequestID = (try? container.decode(CancelledParameters.self, forKey: .params))?.requestId
            }
        }

        /// The envelopes of a message or of a batch; none when it is not JSON.
        static func decode(_ data: Data) -> [Envelope] {
            let decoder = JSONDecoder()
            if let single = try? decoder.decode(Envelope.self, from: data) { return [single] }
            return (try? decoder.decode([Envelope].self, from: data)) ?? []
        }
    }
}
