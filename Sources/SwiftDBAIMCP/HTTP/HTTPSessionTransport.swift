import Foundation
import Logging
import MCP

/// The transport of one Streamable HTTP session: what the client POSTs goes to the session's
/// server; what the server sends goes back on the right HTTP response.
///
/// - The response to a request ends the stream of the POST that carried it.
/// - What the server says while answering a `tools/call` (progress, log messages, elicitation
///   and sampling requests) goes on that POST's stream too (``RelatedRequest``).
/// - Everything else goes on the session's GET stream, or waits for one (at most
///   ``maximumQueued`` messages; the oldest are dropped beyond).
package actor HTTPSessionTransport: RequestRoutedTransport {
    /// One message for an HTTP response, and whether it is the response that ends its stream.
    package struct Outgoing: Sendable {
        /// The JSON-RPC message.
        package let data: Data
        /// True for the response that ends its request's stream.
        package let isFinal: Bool
    }

    package nonisolated let logger: Logger
    private let incoming: AsyncThrowingStream<Data, any Error>
    private let incomingContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// The open POST streams, by request id, and whether their client takes server-sent events.
    private var pending: [RequestKey: (stream: AsyncStream<Outgoing>.Continuation, events: Bool)] = [:]
    private var standalone: (number: Int, continuation: AsyncStream<Outgoing>.Continuation)?
    private var standaloneCount = 0
    private var queued: [Data] = []
    private var isClosed = false
    /// When a request or a response last went through.
    private var lastActivity = ContinuousClock.now

    /// How many server messages wait for a GET stream at most.
    static let maximumQueued = 256

    init(logger: Logger) {
        self.logger = logger
        (incoming, incomingContinuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    /// How long nothing happened: no request in flight, none received, none answered since.
    /// Nil while a request waits for its response.
    var idleDuration: Duration? {
        pending.isEmpty ? ContinuousClock.now - lastActivity : nil
    }

    // MARK: - Transport

    package func connect() async throws {}

    package func disconnect() async {
        close()
    }

    package nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        incoming
    }

    /// Sends a message, reading it to tell a response (and its request) from the rest.
    package func send(_ data: Data) async throws {
        var answered: ID?
        if case .object(let message)? = try? JSONMessageParser.parse(data), message["method"] == nil {
            answered = message["id"].flatMap(ID.init(json:))
        }
        try await send(data, answering: answered)
    }

    /// Sends a message: the response to request `id` ends that request's stream (without one,
    /// the request was cancelled, and the response is dropped); anything else goes with the
    /// request being answered (``RelatedRequest``), or on the GET stream.
    func send(_ data: Data, answering id: ID?) async throws {
        guard !isClosed else { return }
        if let id {
            lastActivity = .now
            pending.removeValue(forKey: RequestKey(id))?.stream.finishing(with: Outgoing(data: data, isFinal: true))
            return
        }
        if let related = RelatedRequest.id, let request = pending[RequestKey(related)], request.events {
            request.stream.yield(Outgoing(data: data, isFinal: false))
        } else if let standalone {
            standalone.continuation.yield(Outgoing(data: data, isFinal: false))
        } else {
            queued.append(data)
            if queued.count > Self.maximumQueued {
                queued.removeFirst()
                logger.notice("A server message waiting for the client's GET stream was dropped (more than \(Self.maximumQueued) waiting).")
            }
        }
    }

    // MARK: - HTTP side

    /// What became of a request passed on.
    enum RequestOutcome {
        /// Its response, and what the server says meanwhile, come on the stream.
        case stream(AsyncStream<Outgoing>)
        /// A request with this id is still in flight.
        case duplicate
        /// The session ended.
        case closed
    }

    /// Passes a request to the server. `events`: the client takes server-sent events, so what
    /// the server says while answering comes on the request's stream (otherwise on the GET stream).
    func request(_ data: Data, id: ID, events: Bool) -> RequestOutcome {
        guard !isClosed else { return .closed }
        guard pending[RequestKey(id)] == nil else { return .duplicate }
        lastActivity = .now
        let (stream, continuation) = AsyncStream.makeStream(of: Outgoing.self)
        pending[RequestKey(id)] = (continuation, events)
        incomingContinuation.yield(data)
        return .stream(stream)
    }

    /// Passes a notification or a response to the server. A cancellation also ends the stream
    /// of the request it cancels (no response will come). False when the session is closed.
    func deliver(_ data: Data, cancelling cancelled: ID?) -> Bool {
        guard !isClosed else { return false }
        lastActivity = .now
        incomingContinuation.yield(data)
        if let cancelled { pending.removeValue(forKey: RequestKey(cancelled))?.stream.finish() }
        return true
    }

    /// Opens the stream of server messages that belong to no request; a newer one replaces it.
    /// Once its reader is gone (the client disconnected), messages wait for the next one.
    func openStandaloneStream() -> AsyncStream<Outgoing>? {
        guard !isClosed else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(
            of: Outgoing.self, bufferingPolicy: .bufferingNewest(Self.maximumQueued))
        standalone?.continuation.finish()
        standaloneCount += 1
        let number = standaloneCount
        standalone = (number, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.standaloneEnded(number) }
        }
        for data in queued { continuation.yield(Outgoing(data: data, isFinal: false)) }
        queued.removeAll()
        return stream
    }

    private func standaloneEnded(_ number: Int) {
        if standalone?.number == number { standalone = nil }
    }

    /// Ends the input: the server answers what it received, then its session completes.
    func endInput() {
        incomingContinuation.finish()
    }

    /// Ends every stream and the input.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        incomingContinuation.finish()
        for request in pending.values { request.stream.finish() }
        pending.removeAll()
        standalone?.continuation.finish()
        standalone = nil
        queued.removeAll()
    }
}

extension AsyncStream<HTTPSessionTransport.Outgoing>.Continuation {
    /// Yields a last element and finishes.
    fileprivate func finishing(with element: HTTPSessionTransport.Outgoing) {
        yield(element)
        finish()
    }
}
