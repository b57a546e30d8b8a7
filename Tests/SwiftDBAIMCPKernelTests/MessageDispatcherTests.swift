import Foundation
import Logging
import MCP
import SwiftDBAIMCPKernel
import SwiftDBAIMCPKernelTestSupport
import SwiftDBAIPrimitives
import Testing

/// A tool handler whose calls wait until the test releases them, and which records what it saw.
final class GatedHandler: Sendable {
    private let state = Mutex((calls: [String](), cancelled: [String](), gates: [String: CheckedContinuation<Void, Never>]()))

    var calls: [String] { state.withLock { $0.calls } }
    var cancelled: [String] { state.withLock { $0.cancelled } }

    /// Lets the waiting call with this tool name finish.
    func release(_ name: String) {
        let gate = state.withLock { $0.gates.removeValue(forKey: name) }
        gate?.resume()
    }

    func isWaiting(_ name: String) -> Bool { state.withLock { $0.gates[name] != nil } }

    var handler: MethodTable.Handler {
        { context in
            guard let name = context.params["name"]?.stringValue, context.params["arguments"].map({ $0.objectValue != nil }) ?? true else {
                throw ProtocolError.invalidParams("tools/call takes a name and arguments.")
            }
            self.state.withLock { $0.calls.append(name) }
            if name.hasPrefix("slow") {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        self.state.withLock { $0.gates[name] = continuation }
                    }
                } onCancel: {
                    self.release(name)
                }
                if Task.isCancelled {
                    self.state.withLock { $0.cancelled.append(name) }
                    throw CancellationError()
                }
            }
            if name == "ask-client" {
                // A request to the client, answered by the test.
                return try await context.peer.request("elicitation/create", ["message": "sure?"], timeout: .seconds(30))
            }
            let x = context.params["arguments"]?.objectValue?["x"]?.stringValue ?? ""
            return ["content": [["type": "text", "text": .string("\(name) \(x)")]]]
        }
    }
}

@Suite("The message dispatcher: validation, eras, order, cancellation, requests to the client and draining")
struct MessageDispatcherTests {
    struct Harness {
        let inner = ScriptedTransport()
        let tools = GatedHandler()
        let dispatcher: MessageDispatcher
        /// Ends when the dispatcher has served the transport.
        let served: Task<Void, Never>

        init(gracePeriod: Duration = .seconds(30), observer: (any RequestObserver)? = nil) {
            var methods = MethodTable()
            methods.add("tools/call", tools.handler)
            methods.add("ping", eras: [.handshake], ordering: .onArrival) { _ in .object([:]) }
            methods.add("server/discover", eras: [.stateless], ordering: .onArrival) { _ in ["supportedVersions": ["2026-07-28"]] }
            dispatcher = MessageDispatcher(
                methods: methods, session: ProtocolSession(),
                gracePeriod: gracePeriod, logger: Logger(label: "tests"), observer: observer)
            let dispatcher = dispatcher
            let inner = inner
            served = Task { await dispatcher.serve(inner) }
        }

        /// Waits (a bounded number of turns) until the condition holds.
        func eventually(_ condition: () -> Bool) async -> Bool {
            for _ in 0..<2_000 {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return condition()
        }
    }

    /// A `tools/call` line; `x` is JSON string content, escapes included.
    static func call(_ id: Int, _ name: String, x: String = "") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"\#(name)","arguments":{"x":"\#(x)"}}}"#
    }

    static let modernMeta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    @Test("a tools/call is answered by its handler, with the request's id")
    func answersToolCalls() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(7, "query", x: #"é\ud83d\ude00\"\\ \u00e9"#))
        await harness.inner.waitForSent(1)
        let reply = try #require(try await harness.inner.sentMessages().first)
        #expect(reply["id"] == 7)
        #expect(reply["jsonrpc"] == "2.0")
        let content = try #require(reply["result"]?.objectValue?["content"]?.arrayValue?.first?.objectValue)
        #expect(content["text"] == "query é\u{1F600}\"\\ é", "escapes and surrogate pairs are decoded")
        #expect(reply["result"]?.objectValue?["resultType"] == nil, "no resultType in the handshake era")
        harness.inner.endInput()
        await harness.served.value
    }

    @Test("a 2026-07-28 request is served statelessly: its result says resultType")
    func statelessResult() async throws {
        let harness = Harness()
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"q","arguments":{},\#(Self.modernMeta)}}"#)
        await harness.inner.waitForSent(1)
        let reply = try #require(try await harness.inner.sentMessages().first)
        #expect(reply["result"]?.objectValue?["resultType"] == "complete")
        harness.inner.endInput()
        await harness.served.value
    }

    @Test("a 2026-07-28 request without its version, or with capabilities missing, is -32602; a version not served is -32022")
    func statelessMetaChecked() async throws {
        let harness = Harness()
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}"#)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{\#(Self.modernMeta)}}"#)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":5,"method":"server/discover"}"#)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":6,"method":"ping","params":{\#(Self.modernMeta)}}"#)
        await harness.inner.waitForSent(6)
        let replies = try await harness.inner.sentMessages()
        #expect(replies.map { $0["id"] } == [1, 2, 3, 4, 5, 6], "answered in arrival order")
        #expect(replies[0]["error"]?.objectValue?["code"] == -32602)
        #expect(replies[1]["error"]?.objectValue?["code"] == -32602)
        let unsupported = try #require(replies[2]["error"]?.objectValue)
        #expect(unsupported["code"] == -32022)
        #expect(unsupported["data"]?.objectValue?["requested"] == "1900-01-01")
        #expect(unsupported["data"]?.objectValue?["supported"]?.arrayValue?.first == "2026-07-28")
        #expect(replies[3]["result"]?.objectValue?["resultType"] == "complete")
        #expect(replies[4]["error"]?.objectValue?["code"] == -32601, "server/discover is not a handshake-era method")
        #expect(replies[5]["error"]?.objectValue?["code"] == -32601, "ping is gone in 2026-07-28")
        harness.inner.endInput()
        await harness.served.value
    }

    @Test("tools/call without a name, or with arguments that are not an object, is an invalid-params error")
    func invalidParameters() async throws {
        let harness = Harness()
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"q","arguments":[1]}}"#)
        await harness.inner.waitForSent(2)
        let replies = try await harness.inner.sentMessages()
        #expect(Set(replies.compactMap { $0["id"] }) == [1, 2])
        for reply in replies {
            #expect(reply["error"]?.objectValue?["code"] == .int(IncomingMessage.invalidParams))
        }
        #expect(harness.tools.calls.isEmpty)
        harness.inner.endInput()
        await harness.served.value
    }

    @Test("a request to the client goes out with a string id, and the client's response answers it")
    func requestsToTheClient() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(1, "ask-client"))
        await harness.inner.waitForSent(1)
        let outgoing = try #require(try await harness.inner.sentMessages().first)
        #expect(outgoing["method"] == "elicitation/create")
        let id = try #require(outgoing["id"]?.stringValue)
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":"\#(id)","result":{"action":"accept"}}"#)
        await harness.inner.waitForSent(2)
        let answer = try #require(try await harness.inner.sentMessages().last)
        #expect(answer["id"] == 1)
        #expect(answer["result"]?.objectValue?["action"] == "accept")
        harness.inner.endInput()
        await harness.served.value
    }

    @Test("a second call with the id of one still running is refused once; the first goes on and is answered")
    func duplicateID() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(1, "slow-a"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-a") })
        harness.inner.deliver(Self.call(1, "query"))
        await harness.inner.waitForSent(1)
        let refusal = try #require(try await harness.inner.sentMessages().first)
        #expect(refusal["id"] == 1)
        #expect(refusal["error"]?.objectValue?["code"] == .int(IncomingMessage.invalidRequest))
        harness.tools.release("slow-a")
        await harness.inner.waitForSent(2)
        let answer = try #require(try await harness.inner.sentMessages().last)
        #expect(answer["result"]?.objectValue?["content"] != nil)
        #expect(harness.tools.calls == ["slow-a"])
        harness.inner.endInput()
        await harness.served.value
    }

    @Test("an observer is told of every request once, refused ones too, with its outcome; the responses are the same")
    func observed() async throws {
        let observer = RecordingObserver()
        let harness = Harness(observer: observer)
        harness.inner.deliver(Self.call(1, "slow-a"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-a") })
        harness.inner.deliver(Self.call(1, "query"))  // a duplicate id: refused
        harness.inner.deliver(#"{"jsonrpc":"2.0","id":2,"method":"nope/nothing","params":{}}"#)  // no such method
        await harness.inner.waitForSent(2)
        harness.inner.deliver(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#)
        #expect(await harness.eventually { harness.tools.cancelled == ["slow-a"] })
        harness.inner.deliver(Self.call(3, "query"))
        await harness.inner.waitForSent(3)
        harness.inner.endInput()
        await harness.served.value
        let ended = observer.ended.withLock { $0 }
        #expect(observer.begun.withLock { $0 } == ["tools/call", "tools/call", "nope/nothing", "tools/call"])
        #expect(ended.sorted() == ["cancelled", "error -32600", "error -32601", "result"].sorted())
        #expect(observer.ran.withLock { $0 } == ["1", "3"], "the handlers of the requests that ran, not of the refused ones")
        #expect(try await harness.inner.sentMessages().map { $0["id"] } == [1, 2, 3])
    }

    @Test("notifications/cancelled cancels the running call, and no response is sent for it")
    func cancellation() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(3, "slow-b"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-b") })
        harness.inner.deliver(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#)
        #expect(await harness.eventually { harness.tools.cancelled == ["slow-b"] })
        harness.inner.deliver(Self.call(4, "query"))
        await harness.inner.waitForSent(1)
        let replies = try await harness.inner.sentMessages()
        #expect(replies.map { $0["id"] } == [4], "the cancelled call got no response")
        harness.inner.endInput()
        await harness.served.value
        #expect(await harness.inner.sent.count == 1)
    }

    @Test("at the end of input, serving ends only once every call received has been answered")
    func drainsBeforeEnding() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(5, "slow-c"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-c") })
        harness.inner.endInput()
        try await Task.sleep(for: .milliseconds(50))
        #expect(await harness.inner.sent.isEmpty)
        harness.tools.release("slow-c")
        await harness.served.value
        let replies = try await harness.inner.sentMessages()
        #expect(replies.map { $0["id"] } == [5], "the call was answered before serving ended")
    }

    @Test("a call that never answers does not hold the end of input longer than the grace period")
    func gracePeriod() async throws {
        let harness = Harness(gracePeriod: .milliseconds(200))
        harness.inner.deliver(Self.call(6, "slow-d"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-d") })
        harness.inner.endInput()
        await harness.served.value
        #expect(await harness.inner.sent.isEmpty)
        harness.tools.release("slow-d")
    }

    @Test("shutting down cancels every running call and ends serving at once, input still open")
    func shutDown() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(8, "slow-e"))
        harness.inner.deliver(Self.call(9, "slow-f"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-e") && harness.tools.isWaiting("slow-f") })
        await harness.dispatcher.shutDown(reason: "test")
        await harness.served.value
        #expect(await harness.eventually { Set(harness.tools.cancelled) == ["slow-e", "slow-f"] })
        #expect(await harness.inner.sent.isEmpty, "no response for calls cut short by the shutdown")
    }

    @Test("an id reused after its request was cancelled is a new request, answered; the cancelled one is not")
    func reusedIDAfterCancellation() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(3, "slow-g"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-g") })
        harness.inner.deliver(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#)
        harness.inner.deliver(Self.call(3, "query", x: "again"))
        await harness.inner.waitForSent(1)
        #expect(await harness.eventually { harness.tools.cancelled == ["slow-g"] })
        harness.inner.endInput()
        await harness.served.value
        let replies = try await harness.inner.sentMessages()
        #expect(replies.count == 1)
        #expect(replies.first?["result"]?.objectValue?["content"]?.arrayValue?.first?.objectValue?["text"] == "query again")
    }
}

/// Records what a dispatcher tells its observer.
final class RecordingObserver: RequestObserver {
    let begun = Mutex<[String]>([])
    let ended = Mutex<[String]>([])

    /// The ids of the requests whose handlers ran inside their observation.
    let ran = Mutex<[String]>([])

    func begin(_ request: ArrivingRequest) -> any ObservedRequest {
        begun.withLock { $0.append(request.method) }
        return Observed(observer: self, id: request.id.replyText)
    }

    struct Observed: ObservedRequest {
        let observer: RecordingObserver
        let id: String

        func during(_ handler: @Sendable () async throws -> Value) async throws -> Value {
            observer.ran.withLock { $0.append(id) }
            return try await handler()
        }

        func end(_ outcome: Result<Value, any Error>?, responseBytes: Int) {
            let text: String
            switch outcome {
            case nil: text = "cancelled"
            case .success: text = "result"
            case .failure(let error): text = "error \(ProtocolError.from(error).code)"
            }
            observer.ended.withLock { $0.append(text) }
        }
    }
}
