import Foundation
import Logging
import MCP
import SwiftDBAI

/// Sits between the stdio transport and the SDK's server:
///
/// - **Validation.** Every line is checked against JSON-RPC 2.0 and MCP first
///   (``IncomingMessage``); what is not valid is answered here, exactly once, with the id the
///   specification asks for, and never reaches the SDK.
/// - **Fast path.** `tools/call` requests are parsed once with ``JSONMessageParser``, answered by
///   the tool handler directly and written with ``JSONMessageWriter``. The SDK's generic path
///   decodes each message about four times and encodes each result three times, and checks
///   every string against a regex it compiles anew; that cost several times the tool's own
///   work. Cancellation of these requests (`notifications/cancelled`) is handled here too.
///   Everything else — initialize, lists, resources, logging, and the responses to the server's
///   own requests (elicitation, sampling) — goes to the SDK unchanged.
/// - **Order.** Each `tools/call` takes its ``RequestTurn`` as it arrives: writes apply in the
///   order received, reads run side by side.
/// - **Drained shutdown.** At the end of input the SDK stops reading and the process would exit
///   before requests already received are answered. The message stream is finished only once
///   every request has its response, or when nothing was answered for a grace period (a request
///   waiting for a user who is gone never completes).
/// - **Prompt shutdown.** ``shutDown(reason:)`` (a signal, or an output the client closed)
///   cancels every running call and ends the stream at once.
actor RoutingTransport: Transport {
    /// Answers one `tools/call` in its turn (``RequestTurn/current``): throws `MCPError` for a
    /// protocol error, `CancellationError` when cancelled (no response is sent).
    typealias ToolCallHandler = @Sendable (CallTool.Parameters) async throws -> CallTool.Result

    nonisolated let logger: Logger
    private let inner: any Transport
    /// The inner transport, when it routes each response by its request (Streamable HTTP).
    private let routed: (any RequestRoutedTransport)?
    private let gracePeriod: Duration
    private let handleToolCall: ToolCallHandler
    /// How a tool's calls take their turn: shared (reads) or exclusive (writes).
    private let turnKind: @Sendable (String) -> TurnQueue.Kind
    /// Called once when the transport shuts down early (signal, closed output).
    private let onShutdown: @Sendable (String) -> Void
    /// Called with the params of each `initialize` request; returns the extensions the server
    /// declares back in its result (`capabilities.extensions`), none when empty.
    private let onInitialize: @Sendable (Value?) -> [String: Value]
    /// Called with the extensions an `initialize` result declared, as it is sent.
    private let onDeclared: @Sendable ([String: Value]) -> Void
    /// The `initialize` requests in flight whose results declare extensions, by id.
    private var declaringExtensions: [RequestKey: [String: Value]] = [:]
    private let order = TurnQueue()
    /// Requests the SDK answers, by id.
    private var forwarded: Set<RequestKey> = []
    /// Requests answered here, by id.
    private var running: [RequestKey: Task<Void, Never>] = [:]
    private var drained: [CheckedContinuation<Void, Never>] = []
    private var lastAnswer = ContinuousClock.now
    private var output: AsyncThrowingStream<Data, any Error>.Continuation?
    private var isShutDown = false

    init(
        _ inner: any Transport, gracePeriod: Duration, logger: Logger,
        turnKind: @escaping @Sendable (String) -> TurnQueue.Kind = { _ in .shared },
        onShutdown: @escaping @Sendable (String) -> Void = { _ in },
        onInitialize: @escaping @Sendable (Value?) -> [String: Value] = { _ in [:] },
        onDeclared: @escaping @Sendable ([String: Value]) -> Void = { _ in },
        handleToolCall: @escaping ToolCallHandler
    ) {
        self.onInitialize = onInitialize
        self.onDeclared = onDeclared
        self.inner = inner
        routed = inner as? any RequestRoutedTransport
        self.gracePeriod = gracePeriod
        self.logger = logger
        self.turnKind = turnKind
        self.onShutdown = onShutdown
        self.handleToolCall = handleToolCall
    }

    func connect() async throws {
        try await inner.connect()
    }

    func disconnect() async {
        await inner.disconnect()
    }

    /// The SDK's messages: forwarded as they are (an `initialize` result with the extensions the
    /// server declares to this client added); a response clears its request.
    func send(_ data: Data) async throws {
        guard !forwarded.isEmpty, case .object(var message)? = try? JSONMessageParser.parse(data),
              message["method"] == nil, message["result"] != nil || message["error"] != nil,
              let id = message["id"].flatMap(ID.init(json:)) else {
            try await write(data, answering: nil)
            return
        }
        var data = data
        if let extensions = declaringExtensions.removeValue(forKey: RequestKey(id)),
           case .object(var result)? = message["result"], case .object(var capabilities)? = result["capabilities"] {
            var declared = capabilities["extensions"]?.objectValue ?? [:]
            declared.merge(extensions) { _, ours in ours }
            capabilities["extensions"] = .object(declared)
            result["capabilities"] = .object(capabilities)
            message["result"] = .object(result)
            data = JSONMessageWriter.data(.object(message))
            onDeclared(extensions)
        }
        try await write(data, answering: id)
        forwarded.remove(RequestKey(id))
        answered()
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        let task = Task {
            await self.setOutput(continuation)
            do {
                for try await message in await inner.receive() where await route(message) {
                    continuation.yield(message)
                }
                await waitUntilAnswered()
                continuation.finish()
            } catch StdioTransportError.outputClosed(let code) {
                // Nobody reads the answers any more: stop the work in flight (writes roll back).
                await shutDown(reason: "the client closed its input (\(StdioTransportError.outputClosed(errno: code)))")
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func setOutput(_ continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
        output = continuation
        if isShutDown { continuation.finish() }
    }

    /// Cancels every call (their statements are interrupted, their writes rolled back) and ends
    /// the message stream now. Calling it again does nothing.
    func shutDown(reason: String) {
        guard !isShutDown else { return }
        isShutDown = true
        logger.notice("Shutting down: \(reason)")
        onShutdown(reason)
        for task in running.values { task.cancel() }
        running.removeAll()
        forwarded.removeAll()
        resumeDrained()
        output?.finish()
    }

    /// Writes a message (the response to request `id`, or nil for anything else); a closed
    /// output shuts the transport down (nobody can read the answers).
    private func write(_ data: Data, answering id: ID?) async throws {
        do {
            if let routed {
                try await routed.send(data, answering: id)
            } else {
                try await inner.send(data)
            }
        } catch let error as StdioTransportError {
            if case .outputClosed = error { shutDown(reason: "the client closed its input (\(error))") }
            throw error
        }
    }

    // MARK: - Routing

    /// Handles the message here when it is a `tools/call` or invalid; returns true to pass it to
    /// the SDK.
    private func route(_ data: Data) async -> Bool {
        guard !isShutDown else { return false }
        switch IncomingMessage(data) {
        case .invalid(let reply, let reason):
            logger.warning("Invalid message: \(reason)")
            if let reply { try? await write(reply, answering: nil) }
            return false
        case .request(let id, let method, let message):
            if method == CallTool.name {
                start(id: id, parameters: message["params"])
                return false
            }
            if let problem = RequestParameterCheck.problem(method: method, params: message["params"]) {
                try? await write(
                    IncomingMessage.errorReply(id: id.replyText, code: IncomingMessage.invalidParams, message: problem), answering: id)
                return false
            }
            if method == Initialize.name {
                let extensions = onInitialize(message["params"])
                if !extensions.isEmpty { declaringExtensions[RequestKey(id)] = extensions }
            }
            forwarded.insert(RequestKey(id))
            return true
        case .notification(let method, let message):
            if method == CancelledNotification.name,
               let cancelled = message["params"]?.objectValue?["requestId"].flatMap(ID.init(json:)) {
                cancel(cancelled)
            }
            return true
        case .response:
            return true
        }
    }

    private func start(id: ID, parameters: Value?) {
        guard running[RequestKey(id)] == nil else {
            // The id of a call still in flight: answered (once) with an error; the first call goes on.
            let reply = IncomingMessage.errorReply(
                id: id.replyText, code: IncomingMessage.invalidRequest,
                message: "Invalid Request: the id of a request still in progress; give each request its own id.")
            Task { try? await self.write(reply, answering: nil) }
            return
        }
        guard case .object(let object)? = parameters, let name = object["name"]?.stringValue,
              object["arguments"].map({ $0.objectValue != nil || $0.isNull }) ?? true else {
            let error = MCPError.invalidParams("tools/call takes params {\"name\": string, \"arguments\": object}.")
            running[RequestKey(id)] = Task { await self.reply(id, .failure(error)) }
            return
        }
        // `Metadata(additionalFields:)` alone would drop the progress token: pass it explicitly.
        let meta = object["_meta"]?.objectValue.map { fields in
            let token: ProgressToken? = switch fields["progressToken"] {
            case .string(let string)?: .string(string)
            case .int(let integer)?: .integer(integer)
            default: nil
            }
            return Metadata(progressToken: token, additionalFields: fields)
        }
        let call = CallTool.Parameters(name: name, arguments: object["arguments"]?.objectValue, meta: meta)
        let handler = handleToolCall
        let turn = RequestTurn(queue: order, kind: turnKind(name))
        running[RequestKey(id)] = Task {
            defer { turn.end() }
            do {
                try await turn.begin()
                let result = try await RelatedRequest.$id.withValue(id) {
                    try await RequestTurn.$current.withValue(turn) { try await handler(call) }
                }
                await self.reply(id, .success(result))
            } catch is CancellationError {
                self.finished(id)
            } catch let error as MCPError {
                await self.reply(id, .failure(error))
            } catch {
                await self.reply(id, .failure(MCPError.internalError("\(error)")))
            }
        }
    }

    private func cancel(_ id: ID) {
        if let task = running.removeValue(forKey: RequestKey(id)) {
            task.cancel()
            answered()
        }
        if forwarded.remove(RequestKey(id)) != nil { answered() }
    }

    private func reply(_ id: ID, _ outcome: Result<CallTool.Result, MCPError>) async {
        guard running[RequestKey(id)] != nil else { return }  // cancelled meanwhile: no response
        var response: [String: Value] = ["jsonrpc": "2.0", "id": id.json]
        switch outcome {
        case .success(let result): response["result"] = Self.json(result)
        case .failure(let error): response["error"] = Self.json(error)
        }
        do {
            try await write(JSONMessageWriter.data(.object(response)), answering: id)
        } catch {
            logger.error("Could not send the response to \(id): \(error)")
        }
        finished(id)
    }

    private func finished(_ id: ID) {
        running[RequestKey(id)] = nil
        answered()
    }

    // MARK: - Draining

    private func answered() {
        lastAnswer = .now
        if running.isEmpty, forwarded.isEmpty { resumeDrained() }
    }

    /// Returns when every request received has been answered, or after `gracePeriod` without
    /// any answer.
    private func waitUntilAnswered() async {
        guard !running.isEmpty || !forwarded.isEmpty else { return }
        logger.debug("Input ended; waiting for \(running.count + forwarded.count) response(s)")
        lastAnswer = .now
        let watchdog = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(100))
                if self.isIdleTooLong() { self.resumeDrained() }
            }
        }
        await withCheckedContinuation { drained.append($0) }
        watchdog.cancel()
    }

    private func isIdleTooLong() -> Bool {
        ContinuousClock.now - lastAnswer > gracePeriod
    }

    private func resumeDrained() {
        let waiting = drained
        drained.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    // MARK: - JSON

    static func json(_ result: CallTool.Result) -> Value {
        var object: [String: Value] = ["content": .array(result.content.map(json))]
        if let structured = result.structuredContent { object["structuredContent"] = structured }
        if let isError = result.isError { object["isError"] = .bool(isError) }
        if let meta = result._meta { object["_meta"] = .object(meta.fields) }
        return .object(object)
    }

    static func json(_ content: Tool.Content) -> Value {
        switch content {
        case .text(let text, _, _):
            return ["type": "text", "text": .string(text)]
        default:
            // Only text is produced by the tools; anything else goes through the SDK's encoder.
            return (try? JSONDecoder().decode(Value.self, from: JSONEncoder().encode(content))) ?? .null
        }
    }

    static func json(_ error: MCPError) -> Value {
        var object: [String: Value] = ["code": .int(error.code), "message": .string(error.localizedDescription)]
        if let data = try? JSONDecoder().decode(Value.self, from: JSONEncoder().encode(error)).objectValue?["data"] {
            object["data"] = data
        }
        return .object(object)
    }
}

/// A request id compared byte for byte. Swift compares strings by canonical equivalence, so as
/// `ID`s `"é"` and `"e\u{301}"` would be one request; to the client they are two.
struct RequestKey: Hashable, Sendable {
    private enum Storage: Hashable, Sendable {
        case string([UInt8])
        case number(Int)
    }

    private let storage: Storage

    init(_ id: ID) {
        switch id {
        case .string(let string): storage = .string(Array(string.utf8))
        case .number(let number): storage = .number(number)
        }
    }
}

extension ID {
    /// The id of a JSON-RPC message: a string or an integer.
    init?(json value: Value) {
        switch value {
        case .string(let string): self = .string(string)
        case .int(let integer): self = .number(integer)
        default: return nil
        }
    }

    /// The id as JSON text.
    var replyText: String {
        String(decoding: JSONMessageWriter.data(json), as: UTF8.self)
    }

    /// The id as JSON.
    var json: Value {
        switch self {
        case .string(let string): .string(string)
        case .number(let number): .int(number)
        }
    }
}
