import Foundation
import Logging
import MCP
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

/// A transport driven by the test: lines go in through ``deliver(_:)`` and ``endInput()``; what
/// the routing layer writes is collected and awaited with ``waitForSent(_:)``.
actor ScriptedTransport: Transport {
    nonisolated let logger = Logger(label: "tests")
    private let input: AsyncThrowingStream<Data, any Error>
    private let inputContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    private(set) var sent: [Data] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init() {
        (input, inputContinuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    func connect() async throws {}
    func disconnect() async {}

    func send(_ data: Data) async throws {
        sent.append(data)
        let ready = waiters.filter { $0.count <= sent.count }
        waiters.removeAll { $0.count <= sent.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { input }

    nonisolated func deliver(_ line: String) { inputContinuation.yield(Data(line.utf8)) }
    nonisolated func endInput() { inputContinuation.finish() }

    /// Returns once `count` messages were written.
    func waitForSent(_ count: Int) async {
        guard sent.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// The messages written, parsed.
    func sentMessages() throws -> [[String: Value]] {
        try sent.map { data in try #require(try JSONMessageParser.parse(data).objectValue) }
    }
}

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

    var handler: RoutingTransport.ToolCallHandler {
        { parameters in
            self.state.withLock { $0.calls.append(parameters.name) }
            if parameters.name.hasPrefix("slow") {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        self.state.withLock { $0.gates[parameters.name] = continuation }
                    }
                } onCancel: {
                    self.release(parameters.name)
                }
                if Task.isCancelled {
                    self.state.withLock { $0.cancelled.append(parameters.name) }
                    throw CancellationError()
                }
            }
            let text = "\(parameters.name) \(parameters.arguments?["x"]?.stringValue ?? "")"
            return CallTool.Result(content: [.text(text: text, annotations: nil, _meta: nil)], isError: false)
        }
    }
}

@Suite("The routing transport: tools/call answered directly, the rest forwarded, cancellation and draining")
struct RoutingTransportTests {
    struct Harness {
        let inner = ScriptedTransport()
        let tools = GatedHandler()
        let routing: RoutingTransport
        /// The messages passed on to the SDK, so far.
        let passedOn = Mutex([String]())
        /// Ends with the messages passed on when the routing layer ends its stream.
        let forwarded: Task<[String], any Error>

        init(gracePeriod: Duration = .seconds(30)) {
            routing = RoutingTransport(inner, gracePeriod: gracePeriod, logger: Logger(label: "tests"), handleToolCall: tools.handler)
            let stream = routing.receive()
            let passedOn = passedOn
            forwarded = Task {
                for try await data in stream {
                    passedOn.withLock { $0.append(String(decoding: data, as: UTF8.self)) }
                }
                return passedOn.withLock { $0 }
            }
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

    @Test("a tools/call is answered by the handler, with the request's id, and never reaches the SDK")
    func answersToolCalls() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(7, "query", x: #"é\ud83d\ude00\"\\ \u00e9"#))
        await harness.inner.waitForSent(1)
        let reply = try #require(try await harness.inner.sentMessages().first)
        #expect(reply["id"] == 7)
        #expect(reply["jsonrpc"] == "2.0")
        let content = try #require(reply["result"]?.objectValue?["content"]?.arrayValue?.first?.objectValue)
        #expect(content["text"] == "query é\u{1F600}\"\\ é", "escapes and surrogate pairs are decoded")
        harness.inner.endInput()
        #expect(try await harness.forwarded.value.isEmpty)
    }

    @Test("other requests and notifications are passed on to the SDK unchanged")
    func forwardsTheRest() async throws {
        let harness = Harness()
        let list = #"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#
        let note = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        harness.inner.deliver(list)
        harness.inner.deliver(note)
        #expect(await harness.eventually { harness.passedOn.withLock { $0.count } == 2 })
        // The SDK answers the forwarded request: that answer goes out through the routing layer.
        try await harness.routing.send(Data(#"{"jsonrpc":"2.0","id":"a","result":{"tools":[]}}"#.utf8))
        harness.inner.endInput()
        #expect(try await harness.forwarded.value == [list, note])
        #expect(await harness.inner.sent.count == 1)
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
        _ = try await harness.forwarded.value
        #expect(await harness.inner.sent.count == 1)
    }

    @Test("at the end of input, the stream ends only once every call received has been answered")
    func drainsBeforeEnding() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(5, "slow-c"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-c") })
        harness.inner.endInput()
        try await Task.sleep(for: .milliseconds(50))
        #expect(await harness.inner.sent.isEmpty)
        harness.tools.release("slow-c")
        _ = try await harness.forwarded.value
        let replies = try await harness.inner.sentMessages()
        #expect(replies.map { $0["id"] } == [5], "the call was answered before the stream ended")
    }

    @Test("a call that never answers does not hold the end of input longer than the grace period")
    func gracePeriod() async throws {
        let harness = Harness(gracePeriod: .milliseconds(200))
        harness.inner.deliver(Self.call(6, "slow-d"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-d") })
        harness.inner.endInput()
        _ = try await harness.forwarded.value
        #expect(await harness.inner.sent.isEmpty)
        harness.tools.release("slow-d")
    }

    @Test("shutting down cancels every running call and ends the stream at once")
    func shutDown() async throws {
        let harness = Harness()
        harness.inner.deliver(Self.call(8, "slow-e"))
        harness.inner.deliver(Self.call(9, "slow-f"))
        #expect(await harness.eventually { harness.tools.isWaiting("slow-e") && harness.tools.isWaiting("slow-f") })
        await harness.routing.shutDown(reason: "test")
        _ = try await harness.forwarded.value
        #expect(await harness.eventually { Set(harness.tools.cancelled) == ["slow-e", "slow-f"] })
        #expect(await harness.inner.sent.isEmpty, "no response for calls cut short by the shutdown")
    }
}
