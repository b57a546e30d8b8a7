import Foundation
import Logging
import MCP
import SwiftDBAIPrimitives

/// The one place every MCP message goes through, for both revisions and both transports:
///
/// - **Validation.** Each message is checked against JSON-RPC 2.0 and MCP (``IncomingMessage``);
///   what is not valid is answered here, exactly once, with the id the specification asks for.
/// - **Era.** A request whose `_meta` names a protocol version is served statelessly under
///   2026-07-28 (``StatelessMeta``: -32602 for a missing field, -32022 for a version not
///   served); any other belongs to the handshake (`initialize`) of the process or HTTP session.
/// - **Order.** Each request takes its turn as it arrives (``MethodTable/Ordering``): writes
///   apply in the order received, reads run side by side, `initialize` is settled before the
///   next message is read.
/// - **Answer.** The handler's result is written once with ``JSONMessageWriter`` (with
///   `resultType` under 2026-07-28); errors become JSON-RPC errors; a cancelled request
///   (`notifications/cancelled`, a closed HTTP stream) gets no response.
/// - **Requests to the client** (handshake era: elicitation, sampling) go on the channel of the
///   request being answered, and their responses come back here (``request(_:_:on:)``).
/// - **Drained shutdown.** ``finishInput()`` then ``waitUntilCompleted()``: every request
///   received is answered first, or nothing was answered for a grace period (a request waiting
///   for a user who is gone never completes). ``shutDown(reason:)`` (a signal, an output the
///   client closed) cancels every running request at once.
package actor MessageDispatcher {
    package nonisolated let logger: Logger
    private nonisolated let methods: MethodTable
    /// The handshake-era state of the process or HTTP session; nil where only stateless requests
    /// arrive (the stateless HTTP endpoint).
    private nonisolated let session: ProtocolSession?
    private let gracePeriod: Duration
    /// Called once when the dispatcher shuts down early (signal, closed output).
    private let onShutdown: @Sendable (String) -> Void
    /// Watches each request (metrics, traces); nil watches nothing.
    private nonisolated let observer: (any RequestObserver)?
    private let order = TurnQueue()

    private struct Key: Hashable {
        let scope: Int
        let id: RequestKey
    }

    /// One request being answered: which one (an id can be reused once answered or cancelled),
    /// its task, and its channel (told when it gets no response).
    private struct Running {
        let serial: Int
        let task: Task<Void, Never>
        let channel: any ReplyChannel
    }

    /// Requests being answered.
    private var running: [Key: Running] = [:]
    private var nextSerial = 0
    /// True when every request takes its turn in one queue, in arrival order (a stdio process,
    /// an HTTP session); false when each scope stands alone (stateless HTTP POSTs, whose order
    /// no client can rely on).
    private let ordersAcrossScopes: Bool
    /// Requests sent to the client, waiting for their responses, by id.
    private var outgoing: [RequestKey: CheckedContinuation<Value, any Error>] = [:]
    private var nextOutgoingID = 0
    private var inputEnded = false
    private var completed: [CheckedContinuation<Void, Never>] = []
    private var lastAnswer = ContinuousClock.now
    private var isShutDown = false
    /// True once ``waitUntilCompleted()`` returns at once.
    private var isCompleted = false
    private var watchdog: Task<Void, Never>?
    /// The reading of a served transport.
    private var reading: Task<Void, Never>?

    package init(
        methods: MethodTable, session: ProtocolSession?, gracePeriod: Duration, logger: Logger,
        ordersAcrossScopes: Bool = true, observer: (any RequestObserver)? = nil,
        onShutdown: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.ordersAcrossScopes = ordersAcrossScopes
        self.observer = observer
        self.methods = methods
        self.session = session
        self.gracePeriod = gracePeriod
        self.logger = logger
        self.onShutdown = onShutdown
    }

    /// True when `method` is answered in `era`.
    package nonisolated func serves(_ method: String, in era: ClientFacts.Era) -> Bool {
        methods.method(method)?.eras.contains(era) ?? false
    }

    // MARK: - Serving a transport

    /// Serves a message transport (stdio) until its input ends and every request received is
    /// answered, or until ``shutDown(reason:)``.
    package func serve(_ transport: any Transport) async {
        let channel = TransportChannel(transport: transport)
        let messages = await transport.receive()
        // A task of its own, so that a shutdown stops the reading at once (stdin stays open).
        let reader = Task { await self.read(messages, on: channel) }
        reading = reader
        await reader.value
        finishInput()
        await waitUntilCompleted()
    }

    private func read(_ messages: AsyncThrowingStream<Data, any Error>, on channel: any ReplyChannel) async {
        do {
            for try await message in messages {
                guard !isShutDown else { break }
                await receive(message, on: channel)
            }
        } catch let error as any TransportFailure where error.clientIsGone {
            // Nobody reads the answers any more: stop the work in flight (writes roll back).
            shutDown(reason: "the client closed its input (\(error))")
        } catch {
            logger.error("The transport failed: \(error)")
        }
    }

    // MARK: - Messages

    /// Handles one incoming message that came on `channel`.
    package nonisolated func receive(_ data: Data, on channel: any ReplyChannel) async {
        await receive(IncomingMessage(data), on: channel)
    }

    /// Handles one incoming message, already classified (and, for a stateless request whose
    /// `_meta` the caller checked already, with that `meta`). The parsing and the checks of a
    /// request's `_meta` happen before it enters the actor, so that concurrent HTTP clients do
    /// not queue behind each other's parsing.
    package nonisolated func receive(_ message: IncomingMessage, on channel: any ReplyChannel, meta: StatelessMeta? = nil) async {
        switch message {
        case .invalid(let reply, let reason):
            logger.warning("Invalid message: \(reason)")
            if let reply { try? await channel.refuse(reply) }
        case .request(let id, let method, let message):
            let params = message["params"]?.objectValue ?? [:]
            let prepared: Result<(ClientFacts, MethodTable.Method), ProtocolError>
            do {
                let facts = try clientFacts(params, meta: meta)
                guard let found = methods.method(method), found.eras.contains(facts.era) else {
                    throw ProtocolError.methodNotFound(
                        method, revision: facts.era == .stateless ? ProtocolRevision.stateless : ProtocolRevision.handshake[0])
                }
                prepared = .success((facts, found))
            } catch {
                prepared = .failure(ProtocolError.from(error))
            }
            await start(id: id, method: method, params: params, prepared: prepared, channel: channel)
        case .notification(let method, let message):
            if method == CancelledNotification.name,
               let cancelled = message["params"]?.objectValue?["requestId"].flatMap(ID.init(json:)) {
                await cancel(cancelled, scope: channel.scope)
            }
        case .response(let id, let message):
            await resolve(id, message)
        }
    }

    private func start(
        id: ID, method: String, params: [String: Value], prepared: Result<(ClientFacts, MethodTable.Method), ProtocolError>,
        channel: any ReplyChannel
    ) async {
        // Refusals before the request runs are operations too (a server stopping is -32603, as
        // its response says).
        let observation = observer?.begin(
            ArrivingRequest(id: id, method: method, params: params, protocolVersion: Self.protocolVersion(prepared, params: params)))
        guard !isShutDown else {
            let stopped = ProtocolError.internalError("The server is stopping, or the session ended: the request was not run.")
            await answer(id, facts: nil, .failure(stopped), channel: channel, observation: observation)
            return
        }
        let key = Key(scope: channel.scope, id: RequestKey(id))
        guard running[key] == nil else {
            // The id of a request still in flight: answered (once) with an error; the first goes on.
            let duplicate = ProtocolError.invalidRequest(
                "Invalid Request: the id of a request still in progress; give each request its own id.")
            await answer(id, facts: nil, .failure(duplicate), channel: channel, isRefusal: true, observation: observation)
            return
        }
        let facts: ClientFacts
        let entry: MethodTable.Method
        switch prepared {
        case .success(let success): (facts, entry) = success
        case .failure(let error):
            await answer(id, facts: nil, .failure(error), channel: channel, observation: observation)
            return
        }
        switch entry.ordering {
        case .onArrival:
            let context = ServedRequest(
                id: id, method: method, params: params, client: facts, peer: Peer(dispatcher: self, channel: channel, turn: nil))
            do {
                let result = try await Self.handle(context, with: entry, observation: observation)
                await answer(id, facts: facts, .success(result), channel: channel, observation: observation)
            } catch {
                await answer(id, facts: facts, .failure(error), channel: channel, observation: observation)
            }
        case .turn(let kind):
            let turn = RequestTurn(queue: ordersAcrossScopes ? order : TurnQueue(), kind: kind(params))
            let context = ServedRequest(
                id: id, method: method, params: params, client: facts, peer: Peer(dispatcher: self, channel: channel, turn: turn))
            nextSerial += 1
            let serial = nextSerial
            let task = Task {
                defer { turn.finish() }
                let outcome: Result<Value, any Error>
                do {
                    try await turn.begin()
                    outcome = .success(try await Self.handle(context, with: entry, observation: observation))
                } catch is CancellationError {
                    // Cancelled by the client (or a shutdown): no response. Otherwise, an error.
                    outcome = .failure(ProtocolError.internalError("Internal error: the request was cancelled by the server."))
                } catch {
                    outcome = .failure(error)
                }
                await self.reply(key, serial: serial, id: id, facts: facts, outcome, channel: channel, observation: observation)
            }
            running[key] = Running(serial: serial, task: task, channel: channel)
        }
    }

    /// Runs a request's handler, inside its observation when it is watched.
    private static func handle(
        _ request: ServedRequest, with entry: MethodTable.Method, observation: (any ObservedRequest)?
    ) async throws -> Value {
        guard let observation else { return try await entry.handle(request) }
        return try await observation.during { try await entry.handle(request) }
    }

    /// The revision a request is served under, for its observer: its `_meta`'s, or its
    /// session's; nil before the checks passed.
    private static func protocolVersion(
        _ prepared: Result<(ClientFacts, MethodTable.Method), ProtocolError>, params: [String: Value]
    ) -> String? {
        guard case .success((let facts, _)) = prepared else { return nil }
        switch facts.era {
        case .stateless: return params["_meta"]?.objectValue?[ProtocolRevision.MetaKey.protocolVersion]?.stringValue
        case .handshake: return facts.session?.client.protocolVersion
        }
    }

    /// What the client of a request declared: from its `_meta` (stateless), else its session.
    private nonisolated func clientFacts(_ params: [String: Value], meta: StatelessMeta?) throws(ProtocolError) -> ClientFacts {
        var meta = meta
        if meta == nil { meta = try StatelessMeta.parse(params) }
        if let meta {
            return ClientFacts(
                era: .stateless, capabilities: meta.capabilities, logLevel: meta.logLevel, statelessClientInfo: meta.clientInfo)
        }
        guard let session else {
            throw .invalidParams(
                "Invalid params: this endpoint serves MCP \(ProtocolRevision.stateless) requests, which carry "
                    + "_meta[\"\(ProtocolRevision.MetaKey.protocolVersion)\"] and _meta[\"\(ProtocolRevision.MetaKey.clientCapabilities)\"]; "
                    + "or send initialize first (MCP 2025-11-25) and then the session id it returned.")
        }
        return ClientFacts(era: .handshake, capabilities: session.capabilities, logLevel: session.logLevel, session: session)
    }

    private func reply(
        _ key: Key, serial: Int, id: ID, facts: ClientFacts, _ outcome: Result<Value, any Error>, channel: any ReplyChannel,
        observation: (any ObservedRequest)?
    ) async {
        // Cancelled meanwhile (or the id is another request's by now): no response.
        guard running[key]?.serial == serial else {
            observation?.end(nil, responseBytes: 0)
            return
        }
        running[key] = nil
        await answer(id, facts: facts, outcome, channel: channel, observation: observation)
        answered()
    }

    /// Writes the response to request `id`; `isRefusal` when the request was refused before it
    /// ran (a duplicate id), so that it ends nothing in flight.
    private func answer(
        _ id: ID, facts: ClientFacts?, _ outcome: Result<Value, any Error>, channel: any ReplyChannel, isRefusal: Bool = false,
        observation: (any ObservedRequest)? = nil
    ) async {
        var response: [String: Value] = ["jsonrpc": "2.0", "id": id.json]
        switch outcome {
        case .success(var result):
            if facts?.era == .stateless, case .object(var object) = result, object["resultType"] == nil {
                object["resultType"] = "complete"
                result = .object(object)
            }
            response["result"] = result
        case .failure(let error):
            response["error"] = ProtocolError.from(error).json
        }
        let data = JSONMessageWriter.data(.object(response))
        observation?.end(outcome, responseBytes: data.count)
        do {
            try await isRefusal ? channel.refuse(data) : channel.respond(data)
        } catch let error as any TransportFailure {
            if error.clientIsGone { shutDown(reason: "the client closed its input (\(error))") }
        } catch {
            logger.error("Could not send the response to \(id): \(error)")
        }
    }

    private func cancel(_ key: Key) async {
        guard let request = running.removeValue(forKey: key) else { return }
        request.task.cancel()
        answered()
        await request.channel.abandon()
    }

    /// Cancels a request of a channel whose reader went away (a closed HTTP stream).
    package func cancel(_ id: ID, scope: Int) async {
        await cancel(Key(scope: scope, id: RequestKey(id)))
    }

    // MARK: - Requests to the client

    /// Sends a request to the client on `channel` and returns its result.
    ///
    /// - Throws: ``ProtocolError`` with the client's error; `CancellationError` when the caller
    ///   is cancelled or the dispatcher shuts down first.
    package func request(_ method: String, _ params: Value, on channel: any ReplyChannel) async throws -> Value {
        guard !isShutDown else { throw CancellationError() }
        nextOutgoingID += 1
        // A string, so that a client's own integer ids are never mistaken for the server's.
        let id = ID.string("dbai-\(nextOutgoingID)")
        let message: Value = ["jsonrpc": "2.0", "id": id.json, "method": .string(method), "params": params]
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outgoing[RequestKey(id)] = continuation
                Task {
                    do {
                        try await channel.send(JSONMessageWriter.data(message))
                    } catch {
                        self.resolve(id, failure: error)
                    }
                }
            }
        } onCancel: {
            Task { await self.resolve(id, failure: CancellationError()) }
        }
    }

    private func resolve(_ id: ID, _ message: [String: Value]) {
        guard let continuation = outgoing.removeValue(forKey: RequestKey(id)) else {
            logger.debug("A response to no pending request (\(id.replyText)) was ignored.")
            return
        }
        if let result = message["result"] {
            continuation.resume(returning: result)
        } else {
            let error = message["error"]?.objectValue
            continuation.resume(throwing: ProtocolError(
                code: error?["code"]?.intValue ?? ProtocolError.internalErrorCode,
                message: error?["message"]?.stringValue ?? "The client answered with an error.",
                data: error?["data"]))
        }
    }

    private func resolve(_ id: ID, failure: any Error) {
        outgoing.removeValue(forKey: RequestKey(id))?.resume(throwing: failure)
    }

    // MARK: - Ending

    /// No more input will come: ``waitUntilCompleted()`` returns once everything received has
    /// been answered.
    package func finishInput() {
        guard !inputEnded else { return }
        inputEnded = true
        if running.isEmpty { resumeCompleted() } else { startWatchdog() }
    }

    /// Returns when the input ended and every request was answered (or nothing was answered for
    /// the grace period), or the dispatcher was shut down.
    package func waitUntilCompleted() async {
        guard !isCompleted else { return }
        await withCheckedContinuation { completed.append($0) }
    }

    /// Cancels every request (their statements are interrupted, their writes rolled back) and
    /// completes now. Calling it again does nothing.
    package func shutDown(reason: String) {
        guard !isShutDown else { return }
        isShutDown = true
        logger.notice("Shutting down: \(reason)")
        onShutdown(reason)
        reading?.cancel()
        let cancelled = Array(running.values)
        running.removeAll()
        for request in cancelled { request.task.cancel() }
        // Streams waiting for these requests end without a response.
        Task { for request in cancelled { await request.channel.abandon() } }
        for continuation in outgoing.values { continuation.resume(throwing: CancellationError()) }
        outgoing.removeAll()
        resumeCompleted()
    }

    private func answered() {
        lastAnswer = .now
        if inputEnded, running.isEmpty { resumeCompleted() }
    }

    private func startWatchdog() {
        logger.debug("Input ended; waiting for \(running.count) response(s)")
        lastAnswer = .now
        watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                if self.isIdleTooLong() {
                    self.resumeCompleted()
                    return
                }
            }
        }
    }

    private func isIdleTooLong() -> Bool {
        ContinuousClock.now - lastAnswer > gracePeriod
    }

    private func resumeCompleted() {
        isCompleted = true
        watchdog?.cancel()
        watchdog = nil
        let waiting = completed
        completed.removeAll()
        for continuation in waiting { continuation.resume() }
    }
}

/// The channel of a message transport (stdio): one scope, everything on the one output.
private struct TransportChannel: ReplyChannel {
    let transport: any Transport
    var scope: Int { 0 }

    func send(_ data: Data) async throws {
        try await transport.send(data)
    }

    func respond(_ data: Data) async throws {
        try await transport.send(data)
    }

    func refuse(_ data: Data) async throws {
        try await transport.send(data)
    }
}
