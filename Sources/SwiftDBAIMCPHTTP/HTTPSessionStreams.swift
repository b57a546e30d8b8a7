import Foundation
import Logging
import SwiftDBAIMCPKernel

/// One message for an HTTP response, and whether it ends its stream.
package struct HTTPOutgoing: Sendable {
    /// The JSON-RPC message.
    package let data: Data
    /// True for the response that ends its request's stream.
    package let isFinal: Bool
    /// True for the error response to a request refused before it ran (its POST gets 400).
    package var isRefusal = false
}

/// The HTTP streams of one Streamable HTTP session (handshake era, 2025-11-25): what its
/// dispatcher says goes back on the right HTTP response.
///
/// - The response to a request ends the stream of the POST that carried it.
/// - What the server says while answering a request (progress, log messages, elicitation and
///   sampling requests) goes on that POST's stream too, when its client takes server-sent events.
/// - Everything else goes on the session's GET stream, or waits for one (at most
///   ``maximumQueued`` messages; the oldest are dropped beyond).
package actor HTTPSessionStreams {
    /// Where dropped messages are reported.
    package nonisolated let logger: Logger
    /// The open POST streams, by the number of their request (its id is the dispatcher's
    /// business: a duplicate is refused there), and whether their client takes server-sent events.
    private var pending: [Int: (stream: AsyncStream<HTTPOutgoing>.Continuation, events: Bool)] = [:]
    private var requestCount = 0
    private var standalone: (number: Int, continuation: AsyncStream<HTTPOutgoing>.Continuation)?
    private var standaloneCount = 0
    private var queued: [Data] = []
    private var isClosed = false
    /// When a request or a response last went through.
    private var lastActivity = ContinuousClock.now

    /// How many server messages wait for a GET stream at most.
    static let maximumQueued = 256

    /// The session's id and static token digest, for audit records (each request's channel adds
    /// its OAuth caller).
    nonisolated let origin: ClientOrigin

    init(logger: Logger, origin: ClientOrigin = .http(session: nil, tokenSHA256: nil)) {
        self.logger = logger
        self.origin = origin
    }

    /// How long nothing happened: no request in flight, none received, none answered since.
    /// Nil while a request waits for its response.
    var idleDuration: Duration? {
        pending.isEmpty ? ContinuousClock.now - lastActivity : nil
    }

    /// Opens the stream of a request: its response, and what the server says meanwhile, come
    /// on the stream; the channel is where the dispatcher writes them. Nil once the session is
    /// closed. `events`: the client takes server-sent events, so what the server says while
    /// answering comes on the request's stream (otherwise on the GET stream).
    ///
    /// `caller`: who sent the request, when an OAuth token said so (each request carries its
    /// own token; the session is bound to one person, whose scopes may change).
    func open(events: Bool, caller: CallerIdentity? = nil) -> (AsyncStream<HTTPOutgoing>, any ReplyChannel)? {
        guard !isClosed else { return nil }
        lastActivity = .now
        requestCount += 1
        let (stream, continuation) = AsyncStream.makeStream(of: HTTPOutgoing.self)
        pending[requestCount] = (continuation, events)
        var origin = origin
        origin.caller = caller
        return (stream, RequestChannel(streams: self, request: requestCount, origin: origin))
    }

    /// The channel of messages that answer no request (notifications, responses): what the
    /// dispatcher says about them goes on the GET stream.
    var sessionChannel: any ReplyChannel { RequestChannel(streams: self, request: nil, origin: origin) }

    /// Records activity (a notification or a response arrived); false when the session is closed.
    func touch() -> Bool {
        guard !isClosed else { return false }
        lastActivity = .now
        return true
    }

    /// Ends the stream of a cancelled request (no response will come).
    fileprivate func abandon(_ request: Int) {
        pending.removeValue(forKey: request)?.stream.finish()
    }

    /// Sends a message: the final response to a request (or its refusal) ends its stream;
    /// anything else goes with the request when its client takes events, or on the GET stream.
    fileprivate func send(_ message: HTTPOutgoing, for request: Int?) {
        guard !isClosed else { return }
        if let request, message.isFinal {
            lastActivity = .now
            pending.removeValue(forKey: request)?.stream.finishing(with: message)
            return
        }
        if let request, let open = pending[request], open.events {
            open.stream.yield(message)
        } else if let standalone {
            // Never final there: the GET stream ends only with the session.
            standalone.continuation.yield(HTTPOutgoing(data: message.data, isFinal: false))
        } else {
            queued.append(message.data)
            if queued.count > Self.maximumQueued {
                queued.removeFirst()
                logger.notice("A server message waiting for the client's GET stream was dropped (more than \(Self.maximumQueued) waiting).")
            }
        }
    }

    /// Opens the stream of server messages that belong to no request; a newer one replaces it.
    /// Once its reader is gone (the client disconnected), messages wait for the next one.
    func openStandaloneStream() -> AsyncStream<HTTPOutgoing>? {
        guard !isClosed else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(
            of: HTTPOutgoing.self, bufferingPolicy: .bufferingNewest(Self.maximumQueued))
        standalone?.continuation.finish()
        standaloneCount += 1
        let number = standaloneCount
        standalone = (number, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.standaloneEnded(number) }
        }
        for data in queued { continuation.yield(HTTPOutgoing(data: data, isFinal: false)) }
        queued.removeAll()
        return stream
    }

    private func standaloneEnded(_ number: Int) {
        if standalone?.number == number { standalone = nil }
    }

    /// Ends every stream.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for request in pending.values { request.stream.finish() }
        pending.removeAll()
        standalone?.continuation.finish()
        standalone = nil
        queued.removeAll()
    }
}

/// Where the dispatcher writes about one request of a session (or, without a request, about
/// messages that answer none).
private struct RequestChannel: ReplyChannel {
    let streams: HTTPSessionStreams
    /// The request's number in ``HTTPSessionStreams``.
    let request: Int?
    let origin: ClientOrigin
    var scope: Int { 0 }

    func send(_ data: Data) async throws {
        await streams.send(HTTPOutgoing(data: data, isFinal: false), for: request)
    }

    func respond(_ data: Data) async throws {
        await streams.send(HTTPOutgoing(data: data, isFinal: true), for: request)
    }

    func refuse(_ data: Data) async throws {
        await streams.send(HTTPOutgoing(data: data, isFinal: true, isRefusal: true), for: request)
    }

    func abandon() async {
        if let request { await streams.abandon(request) }
    }
}

extension AsyncStream<HTTPOutgoing>.Continuation {
    /// Yields a last element and finishes.
    func finishing(with element: HTTPOutgoing) {
        yield(element)
        finish()
    }
}
