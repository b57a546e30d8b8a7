import Foundation
import HTTPTypes
import Logging
import MCP
import SwiftDBAIMCP
import SwiftDBAIPrimitives
import Tracing
import SwiftDBAIMCPKernel

/// MCP Streamable HTTP (specification 2025-11-25, and 2026-07-28's stateless requests), independent
/// of the HTTP server under it: ``MCPRouter`` routes `/mcp` here once ``HTTPRequestGate`` let the
/// request through.
///
/// - `POST` carries one JSON-RPC message, parsed once here and handed to the dispatcher as is. `initialize` opens a session (its id comes back in
///   `Mcp-Session-Id`); every other message names its session. A request is answered with its
///   response as `application/json`, or as server-sent events when the server has something to
///   say first (progress, elicitation); a notification or a response gets 202.
/// - `GET` opens the session's stream of server messages that belong to no request.
/// - `DELETE` ends the session.
///
/// Sessions are independent: each has its own MCP server, capabilities, log level,
/// conversations and confirmation tokens (``ClientSession``). One idle for
/// ``HTTPServeOptions/sessionIdleTimeout`` is closed; at most ``HTTPServeOptions/maxSessions``
/// are open.
///
/// With `--oauth-issuer`, every request carries its caller (``HTTPExchangeRequest/caller``): a
/// request beyond the caller's scopes is answered 403 before anything of it runs, and a session
/// belongs to the person and application that opened it (another gets 404, as for a session that
/// does not exist).
package actor StreamableHTTPEndpoint {
    private struct Session {
        let streams: HTTPSessionStreams
        let dispatcher: MessageDispatcher
        /// Who opened it, when an OAuth token said so: only they, through the same client, may use it.
        let owner: CallerIdentity?
        /// When it opened (for `mcp.server.session.duration`).
        let opened = ContinuousClock.now
    }

    /// The path MCP is served at.
    package static let path = "/mcp"

    private let server: DBAIServer
    package nonisolated let options: HTTPServeOptions
    private let logger: Logger
    private var sessions: [String: Session] = [:]
    /// Sessions being started (counted against the cap).
    private var starting = 0
    private var isDraining = false
    /// The sessions are ending (a drain, once the listener closes): their new requests get 503.
    private var sessionsClosing = false
    /// The stateless requests' input has ended (the last step of a drain).
    private var statelessFinished = false
    /// The last readiness check (``readiness()``), shared by the probes of its second.
    private var readinessCheck: (started: ContinuousClock.Instant, task: Task<(ready: Bool, reason: String?), Never>)?
    /// Why the last check found the server not ready (logged when it changes).
    private var lastUnreadiness: String?
    private var ended: [CheckedContinuation<Void, Never>] = []
    /// Answers the stateless (2026-07-28) requests, which belong to no session.
    private nonisolated let stateless: MessageDispatcher
    /// The scope of the last stateless POST (each is its own id space).
    private nonisolated let scopes = Mutex(0)
    /// The SHA-256 of the bearer token every accepted request carries, for audit records.
    private nonisolated let tokenSHA256: String?

    package init(server: DBAIServer, options: HTTPServeOptions, logger: Logger) {
        self.server = server
        self.options = options
        self.logger = logger
        stateless = server.statelessDispatcher()
        tokenSHA256 = options.authToken.map(ClientOrigin.digest(ofToken:))
    }

    /// The number of open sessions.
    package var sessionCount: Int { sessions.count }

    // MARK: - Health

    /// `GET /healthz`: the process answers.
    package nonisolated func health() -> HTTPReply {
        Self.probeAnswer(.ok, "ok")
    }

    /// `GET /readyz`: 200 when every database reads, the audit log and the shared confirmation ledger can be written, and the
    /// server is not draining; else 503. The answer is a status word; why goes to the log, when
    /// it changes. Probes that arrive together share one check, and a check serves for a second.
    package func readiness() async -> HTTPReply {
        guard !isDraining else { return Self.probeAnswer(.serviceUnavailable, "draining") }
        let check: Task<(ready: Bool, reason: String?), Never>
        if let recent = readinessCheck, ContinuousClock.now - recent.started < .seconds(1) {
            check = recent.task
        } else {
            let server = server
            check = Task { await server.readiness() }
            readinessCheck = (.now, check)
        }
        let (ready, reason) = await check.value
        if reason != lastUnreadiness {
            lastUnreadiness = reason
            if let reason { logger.warning("not ready: \(reason)") } else { logger.notice("ready again") }
        }
        guard !isDraining else { return Self.probeAnswer(.serviceUnavailable, "draining") }
        return ready ? Self.probeAnswer(.ok, "ready") : Self.probeAnswer(.serviceUnavailable, "not ready")
    }

    /// A probe's answer: one word, never cached.
    private static func probeAnswer(_ status: HTTPTypes.HTTPResponse.Status, _ word: String) -> HTTPReply {
        HTTPReply(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .data(Data((word + "\n").utf8)))
    }

    // MARK: - Requests

    /// The answer to a CORS preflight: what a browser may send.
    package nonisolated func preflight() -> HTTPReply {
        HTTPReply(status: .noContent, headers: [
            .allow: Self.allowedMethods,
            .accessControlAllowMethods: Self.allowedMethods,
            .accessControlAllowHeaders: "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID",
            .accessControlMaxAge: "600",
        ])
    }

    /// The answer to a method `/mcp` does not serve.
    package nonisolated func methodNotAllowed() -> HTTPReply {
        .error(.methodNotAllowed, "Method Not Allowed: use POST, GET or DELETE.", headers: [.allow: Self.allowedMethods])
    }

    /// The methods `/mcp` serves.
    package static let allowedMethods = "GET, POST, DELETE, OPTIONS"

    /// A POST: parsed, and served when stateless, outside the actor (concurrent clients do not
    /// queue behind each other); a session's messages go through the actor.
    package nonisolated func post(_ request: HTTPExchangeRequest) async -> HTTPReply {
        // A traced server continues the HTTP request's trace (its `traceparent` header): the
        // parent of its MCP spans when their `_meta` names none, linked otherwise.
        guard server.configuration.tracesRequests,
              let carrier = TraceCarrier(traceparent: request.header(.traceparent), tracestate: request.header(.tracestate))
        else { return await served(request) }
        var context = ServiceContext.current ?? .topLevel
        carrier.extract(into: &context, using: InstrumentationSystem.instrument)
        return await ServiceContext.withValue(context) { await served(request) }
    }

    private nonisolated func served(_ request: HTTPExchangeRequest) async -> HTTPReply {
        let contentType = request.header(.contentType)?.split(separator: ";").first
            .map { HTTPText.lowercased(HTTPText.trimmed($0)) }
        guard contentType == "application/json" else {
            return .error(.unsupportedMediaType, "Unsupported Media Type: POST one JSON-RPC message as application/json.")
        }
        let events = request.accepts("text/event-stream")
        guard events || request.accepts("application/json") else {
            return .error(.notAcceptable, "Not Acceptable: accept application/json and text/event-stream.")
        }
        let message = IncomingMessage(request.body)
        if case .invalid(let reply, _) = message {
            return HTTPReply(
                status: .badRequest, headers: [.contentType: "application/json"],
                body: .data(reply ?? IncomingMessage.errorReply(id: "null", code: IncomingMessage.invalidRequest, message: "Invalid Request.")))
        }
        if case .request(let id, let method, let object) = message {
            let params = object["params"]?.objectValue ?? [:]
            if let refusal = scopeRefusal(request, id: id, method: method, params: params) { return refusal }
            do {
                if let meta = try StatelessMeta.parse(params) {
                    return await stateless(request, id: id, method: method, message: object, params: params, meta: meta, events: events)
                }
            } catch {
                return Self.errorReply(id: id, error)
            }
            if method == "initialize" { return await initialize(request, message, id: id, events: events) }
        }
        return await sessionMessage(request, message, events: events)
    }

    /// The 403 of a request that needs scopes its OAuth caller's token does not grant; nil when
    /// it may run (or no OAuth token narrows it).
    private nonisolated func scopeRefusal(_ request: HTTPExchangeRequest, id: ID, method: String, params: [String: Value]) -> HTTPReply? {
        guard let caller = request.caller, let oauth = options.oauth else { return nil }
        let needed = server.requiredScopes(method: method, params: params)
        guard needed.contains(where: { !caller.scopes.contains($0.rawValue) }) else { return nil }
        return oauth.insufficientScope(needed, caller: caller, id: id.replyText)
    }

    /// How a request reached the server, for audit records: its session, and the static token's
    /// digest or its OAuth caller.
    private nonisolated func origin(of request: HTTPExchangeRequest, session: String?) -> ClientOrigin {
        .http(session: session, tokenSHA256: request.caller == nil ? tokenSHA256 : nil, caller: request.caller)
    }

    /// A message of a 2025-11-25 session (`Mcp-Session-Id`). Duplicate ids and
    /// `notifications/cancelled` are the dispatcher's business, as over stdio.
    private func sessionMessage(_ request: HTTPExchangeRequest, _ message: IncomingMessage, events: Bool) async -> HTTPReply {
        let found: (id: String, session: Session)
        var requestID = "null"
        if case .request(let id, _, _) = message { requestID = id.replyText }
        switch session(of: request, replyID: requestID) {
        case .success(let success): found = success
        case .failure(let reply): return reply
        }
        if let version = request.header(.mcpProtocolVersion), !ProtocolRevision.handshake.contains(version) {
            return .error(.badRequest, "Bad Request: unsupported Mcp-Protocol-Version \(version) in a session; supported: \(ProtocolRevision.handshake.joined(separator: ", ")).")
        }
        let headers: HTTPFields = [.mcpSessionID: found.id]
        if case .request(let id, _, _) = message {
            guard !sessionsClosing else { return Self.shuttingDown }
            return await Self.pass(message, id: id, events: events, caller: request.caller, to: found.session, headers: headers)
        }
        // A notification or a response to the server's request.
        guard await found.session.streams.touch() else { return Self.sessionEnded }
        await found.session.dispatcher.receive(message, on: await found.session.streams.sessionChannel)
        return HTTPReply(status: .accepted, headers: headers)
    }

    /// A stateless (2026-07-28) request: no session; its headers must agree with its body.
    private nonisolated func stateless(
        _ request: HTTPExchangeRequest, id: ID, method: String, message: [String: Value], params: [String: Value],
        meta: StatelessMeta, events: Bool
    ) async -> HTTPReply {
        if let mismatch = StatelessHeaders.mismatch(request, method: method, params: params, version: meta.version) {
            return Self.errorReply(id: id, mismatch)
        }
        guard stateless.serves(method, in: .stateless) else {
            return Self.errorReply(id: id, ProtocolError.methodNotFound(method, revision: ProtocolRevision.stateless), status: .notFound)
        }
        // During a drain too: a request that reached the server over a connection already open is
        // answered (the listener is closed; the connection closes after the response).
        guard await !statelessFinished else { return Self.shuttingDown }
        let scope = scopes.withLock { number in
            number += 1
            return number
        }
        let (channel, stream) = StatelessExchangeChannel.open(
            id: id, scope: scope, events: events, origin: origin(of: request, session: nil), dispatcher: stateless)
        await stateless.receive(IncomingMessage.request(id: id, method: method, message: message), on: channel, meta: meta)
        return HTTPReply(status: .ok, body: .messages(stream, sse: events))
    }

    /// An error response to request `id`, with the HTTP status its code takes.
    private static func errorReply(id: ID, _ error: any Error, status: HTTPTypes.HTTPResponse.Status? = nil) -> HTTPReply {
        let error = ProtocolError.from(error)
        return HTTPReply(
            status: status ?? .init(code: error.code == ProtocolError.invalidParamsCode ? 400 : error.httpStatus),
            headers: [.contentType: "application/json"],
            body: .data(JSONMessageWriter.data(["jsonrpc": "2.0", "id": id.json, "error": error.json])))
    }

    private func initialize(_ request: HTTPExchangeRequest, _ message: IncomingMessage, id: ID, events: Bool) async -> HTTPReply {
        guard !isDraining else { return Self.shuttingDown }
        if sessions.count + starting >= options.maxSessions { await closeIdleSessions() }
        guard sessions.count + starting < options.maxSessions else {
            logger.warning("A new session was refused: \(sessions.count) sessions are open (--max-sessions \(options.maxSessions)).")
            return .error(
                .serviceUnavailable, "Service Unavailable: \(sessions.count) sessions are open, the most this server allows "
                    + "(--max-sessions \(options.maxSessions)); end one (DELETE) or try again later.",
                headers: [.retryAfter: "5"])
        }
        let sessionID = Self.newSessionID()
        let session = Session(
            streams: HTTPSessionStreams(logger: logger, origin: origin(of: request, session: sessionID)),
            dispatcher: server.sessionDispatcher(transport: .tcp, sessionID: sessionID), owner: request.caller)
        sessions[sessionID] = session
        logger.info("Session \(sessionID.prefix(8))… opened (\(sessions.count) open)")
        Task { await self.watch(sessionID, session: session) }
        return await Self.pass(message, id: id, events: events, caller: request.caller, to: session, headers: [.mcpSessionID: sessionID])
    }

    /// Passes a request to its session: the reply streams its response (or, for the id of a
    /// request still running, the dispatcher's refusal, with status 400).
    private static func pass(
        _ message: IncomingMessage, id: ID, events: Bool, caller: CallerIdentity?, to session: Session, headers: HTTPFields
    ) async -> HTTPReply {
        guard let (stream, channel) = await session.streams.open(events: events, caller: caller) else { return sessionEnded }
        await session.dispatcher.receive(message, on: channel)
        return HTTPReply(status: .ok, headers: headers, body: .messages(stream, sse: events))
    }

    package func get(_ request: HTTPExchangeRequest) async -> HTTPReply {
        guard request.accepts("text/event-stream") else {
            return .error(.notAcceptable, "Not Acceptable: the GET stream is text/event-stream.")
        }
        let found: (id: String, session: Session)
        switch session(of: request) {
        case .success(let success): found = success
        case .failure(let reply): return reply
        }
        guard let stream = await found.session.streams.openStandaloneStream() else { return Self.sessionEnded }
        return HTTPReply(status: .ok, headers: [.mcpSessionID: found.id], body: .events(stream))
    }

    package func delete(_ request: HTTPExchangeRequest) async -> HTTPReply {
        let found: (id: String, session: Session)
        switch session(of: request) {
        case .success(let success): found = success
        case .failure(let reply): return reply
        }
        await end(found.id, reason: "the client ended it")
        return HTTPReply(status: .ok)
    }

    // MARK: - Sessions

    private enum Lookup {
        case success((id: String, session: Session))
        case failure(HTTPReply)
    }

    /// The session a request names.
    private func session(of request: HTTPExchangeRequest, replyID: String = "null") -> Lookup {
        guard let id = request.header(.mcpSessionID) else {
            return .failure(.error(
                .badRequest, "Bad Request: no Mcp-Session-Id header; send initialize first, then the session id it returned "
                    + "(MCP 2025-11-25), or make every request a 2026-07-28 one (_meta[\"\(ProtocolRevision.MetaKey.protocolVersion)\"]).",
                code: ProtocolError.invalidParamsCode, id: replyID))
        }
        // A session of another person is not theirs to know of.
        guard let session = sessions[id], Self.isSameClient(session.owner, request.caller) else {
            return .failure(.error(.notFound, "Not Found: no session \(id.prefix(64)) (it ended or expired); initialize a new one."))
        }
        return .success((id, session))
    }

    /// Removes a session once its dispatcher completed (its input ended and everything was answered).
    private func watch(_ id: String, session: Session) async {
        await session.dispatcher.waitUntilCompleted()
        await session.streams.close()
        if sessions.removeValue(forKey: id) != nil {
            logger.info("Session \(id.prefix(8))… closed (\(sessions.count) open)")
            server.sessionEnded(after: .now - session.opened)
        }
        if sessions.isEmpty { resumeEnded() }
    }

    /// Ends a session now: its running calls are cancelled (their writes roll back).
    private func end(_ id: String, reason: String) async {
        guard let session = sessions.removeValue(forKey: id) else { return }
        logger.info("Session \(id.prefix(8))… ending: \(reason)")
        server.sessionEnded(after: .now - session.opened)
        await session.dispatcher.shutDown(reason: "session \(id.prefix(8))…: \(reason)")
        await session.streams.close()
        if sessions.isEmpty { resumeEnded() }
    }

    /// Closes the sessions idle for longer than the timeout: no request in flight, and none
    /// received or answered meanwhile.
    package func closeIdleSessions() async {
        for (id, session) in sessions {
            guard let idle = await session.streams.idleDuration, idle > options.sessionIdleTimeout else { continue }
            await end(id, reason: "idle for more than \(options.sessionIdleTimeout)")
        }
    }

    // MARK: - Shutdown

    /// Starts the drain: `/readyz` answers 503 and no session starts; stateless requests are
    /// still answered (they can only come over connections already open).
    package func beginDrain() {
        isDraining = true
    }

    /// Lets every session answer the requests it received, ends each once it has, and returns
    /// when all have ended. A session's new request is refused meanwhile (503): the client starts
    /// a new session on another replica.
    package func drainSessions() async {
        isDraining = true
        sessionsClosing = true
        for session in sessions.values { await session.dispatcher.finishInput() }
        if !sessions.isEmpty { await withCheckedContinuation { ended.append($0) } }
    }

    /// Takes no more stateless requests and returns once those running are answered (after the
    /// listener and its connections closed, none can arrive).
    package func finishStatelessRequests() async {
        isDraining = true
        statelessFinished = true
        await stateless.finishInput()
        await stateless.waitUntilCompleted()
    }

    /// Ends every session now.
    package func closeAll() async {
        isDraining = true
        sessionsClosing = true
        statelessFinished = true
        await stateless.shutDown(reason: "the server is stopping")
        for id in Array(sessions.keys) { await end(id, reason: "the server is stopping") }
    }

    private func resumeEnded() {
        let waiting = ended
        ended.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    private static func isSameClient(_ owner: CallerIdentity?, _ caller: CallerIdentity?) -> Bool {
        switch (owner, caller) {
        case (nil, nil): true
        case (let owner?, let caller?): owner.isSameClient(as: caller)
        default: false
        }
    }

    private static let shuttingDown = HTTPReply.error(.serviceUnavailable, "Service Unavailable: the server is shutting down.")
    private static let sessionEnded = HTTPReply.error(.notFound, "Not Found: the session ended; initialize a new one.")

    /// 128 random bits, as hex (visible ASCII, as the specification requires).
    private static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
