import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// Questions sent to one conversation at the same time do not interleave.
@Suite("Chat engine: concurrent questions")
struct ChatEngineConcurrencyTests {
    /// Answers with SQL; the first request waits until the test opens the gate.
    final class GatedModel: LanguageModel, @unchecked Sendable {
        let name = "gated"
        let capabilities = LanguageModelCapabilities.textOnly
        private let lock = NSLock()
        private var recorded: [LanguageModelRequest] = []
        private let gate: AsyncStream<Void>
        let openGate: AsyncStream<Void>.Continuation
        let firstArrived: AsyncStream<Void>
        private let firstArrivedContinuation: AsyncStream<Void>.Continuation

        init() {
            (gate, openGate) = AsyncStream<Void>.makeStream()
            (firstArrived, firstArrivedContinuation) = AsyncStream<Void>.makeStream()
        }

        var requests: [LanguageModelRequest] { lock.withLock { recorded } }

        func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
            let isFirst = lock.withLock {
                recorded.append(request)
                return recorded.count == 1
            }
            if isFirst {
                firstArrivedContinuation.yield()
                for await _ in gate { break }
            }
            return LanguageModelResponse(text: "SELECT count(*) FROM album")
        }
    }

    @Test("a second question waits for the first and sees its turn")
    func questionsDoNotInterleave() async throws {
        let model = GatedModel()
        let executor = try SQLExecutor(database: TestDatabase.inMemory(
            "CREATE TABLE album(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO album(title) VALUES ('A'), ('B');"))
        var configuration = ChatConfiguration()
        configuration.summary = .deterministic
        let engine = ChatEngine(executor: executor, model: model, configuration: configuration.oneCandidate)

        let first = Task { try await engine.send("How many albums are there?") }
        for await _ in model.firstArrived { break }
        let second = Task { try await engine.send("And now?") }
        try await Task.sleep(for: .milliseconds(200))
        #expect(model.requests.count == 1, "the second question reached the model while the first was unanswered")
        model.openGate.yield()
        _ = try await first.value
        _ = try await second.value

        #expect(model.requests.count == 2)
        let secondMessages = model.requests[1].messages.map(\.content)
        #expect(secondMessages.contains { $0.contains("How many albums are there?") })
        #expect(await engine.turns.map(\.question) == ["How many albums are there?", "And now?"])
    }

    @Test("a question cancelled while it waits for the one before is a cancelled model error")
    func cancelledWhileWaiting() async throws {
        let model = GatedModel()
        let executor = try SQLExecutor(database: TestDatabase.inMemory("CREATE TABLE album(id INTEGER PRIMARY KEY);"))
        var configuration = ChatConfiguration()
        configuration.summary = .deterministic
        let engine = ChatEngine(executor: executor, model: model, configuration: configuration.oneCandidate)
        let first = Task { try await engine.send("How many albums are there?") }
        for await _ in model.firstArrived { break }
        let second = Task { () async throws(ChatError) -> ChatResponse in try await engine.send("And now?") }
        try await Task.sleep(for: .milliseconds(100))
        second.cancel()
        let result = await second.result
        #expect(throws: ChatError.model(.cancelled)) { try result.get() }
        model.openGate.yield()
        _ = try await first.value
        #expect(model.requests.count == 1, "the cancelled question reached the model")
    }
}
