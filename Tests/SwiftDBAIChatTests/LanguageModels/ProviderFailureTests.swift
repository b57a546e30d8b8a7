import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// What every HTTP provider must do when the server fails, against its own wire format.
@Suite("HTTP providers: retries, errors, timeouts")
struct ProviderFailureTests {
    typealias Fixtures = LanguageModelFixtures

    // These two never time the request: a retry that ignored Retry-After or the cap would wait an
    // hour, and the time limit fails the test long before.
    @Test("429 with Retry-After: 0 is retried at once (not after the hour-long backoff) and then succeeds",
          .timeLimit(.minutes(2)), arguments: ProviderKind.allCases)
    func rateLimitThenSuccess(provider: ProviderKind) async throws {
        let server = try ReplayHTTPServer([
            .json(provider.rateLimitError, status: 429, headers: ["Retry-After": "0"]),
            .json(provider.textAnswer),
        ])
        let model = provider.model(server, retryPolicy: Fixtures.slowBackoffRetry)
        let response = try await model.respond(to: Fixtures.question)
        #expect(response.text == "There are 347 albums.")
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.target == provider.path })
    }

    @Test("a long Retry-After is capped at the policy's maximum delay", .timeLimit(.minutes(2)), arguments: ProviderKind.allCases)
    func retryAfterCapped(provider: ProviderKind) async throws {
        let server = try ReplayHTTPServer([
            .json(provider.rateLimitError, status: 429, headers: ["Retry-After": "3600"]),
            .json(provider.textAnswer),
        ])
        let policy = RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(10), maxDelay: .milliseconds(50))
        _ = try await provider.model(server, retryPolicy: policy).respond(to: Fixtures.question)
        #expect(server.requests.count == 2)
    }

    @Test("429 on every attempt is rateLimited with the server's Retry-After", arguments: ProviderKind.allCases)
    func rateLimitExhausted(provider: ProviderKind) async throws {
        let server = try ReplayHTTPServer(
            [], whenExhausted: .json(provider.rateLimitError, status: 429, headers: ["Retry-After": "0.004"]))
        let model = provider.model(server)
        let error = await caughtModelError(model, Fixtures.question)
        guard case .rateLimited(_, let retryAfter)? = error else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(retryAfter == .milliseconds(4))
        #expect(server.requests.count == 3)
    }

    @Test("500 after the retries are spent is httpStatus with the provider's own message", arguments: ProviderKind.allCases)
    func serverErrorExhausted(provider: ProviderKind) async throws {
        let (body, message) = provider.serverError
        let server = try ReplayHTTPServer([], whenExhausted: .json(body, status: 500))
        let model = provider.model(server)
        let error = await caughtModelError(model, Fixtures.question)
        guard case .httpStatus(_, let status, let received)? = error else {
            Issue.record("expected httpStatus, got \(String(describing: error))")
            return
        }
        #expect(status == 500)
        #expect(received.contains(message))
        #expect(server.requests.count == 3, "the first attempt and two retries")
    }

    @Test("a 400 is not retried", arguments: ProviderKind.allCases)
    func clientErrorNotRetried(provider: ProviderKind) async throws {
        let server = try ReplayHTTPServer([.json(#"{"error": {"message": "bad request"}}"#, status: 400)])
        let error = await caughtModelError(provider.model(server), Fixtures.question)
        guard case .httpStatus(_, 400, "bad request")? = error else {
            Issue.record("expected httpStatus 400, got \(String(describing: error))")
            return
        }
        #expect(server.requests.count == 1)
    }

    @Test("malformed JSON is unparseableResponse, not retried", arguments: ProviderKind.allCases)
    func malformedJSON(provider: ProviderKind) async throws {
        let truncated = String(provider.textAnswer.prefix(40))
        let server = try ReplayHTTPServer([.json(truncated), .json(provider.textAnswer)])
        let error = await caughtModelError(provider.model(server), Fixtures.question)
        guard case .unparseableResponse(_, let reason)? = error else {
            Issue.record("expected unparseableResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not JSON"))
        #expect(server.requests.count == 1)
    }

    @Test("JSON without the answer's members is unparseableResponse", arguments: ProviderKind.allCases)
    func missingMembers(provider: ProviderKind) async throws {
        let server = try ReplayHTTPServer([.json(#"{"id": "x", "object": "unexpected"}"#)])
        let error = await caughtModelError(provider.model(server), Fixtures.question)
        guard case .unparseableResponse? = error else {
            Issue.record("expected unparseableResponse, got \(String(describing: error))")
            return
        }
    }

    @Test("a server slower than the timeout is a timeout", arguments: ProviderKind.allCases)
    func timeout(provider: ProviderKind) async throws {
        // The answer would come after 30 s, as a success: a timeout error shows the request was
        // not waited out (no clock is read: a busy machine may be slow to deliver the timeout).
        let server = try ReplayHTTPServer([.json(provider.textAnswer, delay: .seconds(30))])
        let model = provider.model(server, timeout: .milliseconds(300), retryPolicy: .none)
        let error = await caughtModelError(model, Fixtures.question)
        guard case .timeout(_, let seconds)? = error else {
            Issue.record("expected timeout, got \(String(describing: error))")
            return
        }
        #expect(seconds == 0.3)
    }

    @Test("a port where nothing listens is unreachable, after the retries", arguments: ProviderKind.allCases)
    func connectionRefused(provider: ProviderKind) async throws {
        let refusing = try ReplayHTTPServer.RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
        let model = provider.model(
            baseURL: baseURL, apiKey: Fixtures.apiKey, timeout: .seconds(5), retryPolicy: Fixtures.fastRetry)
        let error = await caughtModelError(model, Fixtures.question)
        guard case .unreachable(_, let reason)? = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(reason == "connection refused")
        #expect(!(error?.description.contains(Fixtures.apiKey) ?? true))
    }

    @Test("cancelling the task ends a pending request with cancelled", arguments: ProviderKind.allCases)
    func cancellation(provider: ProviderKind) async throws {
        // The answer would come after 30 s: a timeout well before it shows the request was not
        // waited out (the bound is a hang check with a wide margin, not a speed measurement).
        let server = try ReplayHTTPServer([.json(provider.textAnswer, delay: .seconds(30))])
        let model = provider.model(server, timeout: .seconds(10), retryPolicy: .none)
        let task = Task { await caughtModelError(model, Fixtures.question) }
        await server.waitForRequests(1)
        task.cancel()
        let error = await task.value
        #expect(error == .cancelled)
    }

    @Test("printing or dumping a model never shows its key", arguments: ProviderKind.allCases)
    func keyNeverShown(provider: ProviderKind) throws {
        let model = provider.model(
            baseURL: try #require(URL(string: "http://127.0.0.1:9")), apiKey: Fixtures.apiKey, timeout: .seconds(1),
            retryPolicy: .none)
        var dumped = ""
        dump(model, to: &dumped)
        for text in [String(describing: model), String(reflecting: model), dumped, model.name] {
            #expect(!text.contains(Fixtures.apiKey))
        }
        // What they do show: the type, the model's name and where it is served.
        #expect(String(describing: model).hasPrefix("\(type(of: model))(\(model.name) at "))
        #expect(String(describing: model).contains("127.0.0.1:9") && dumped.contains(model.name))
    }

    @Test("an API key with a line break is refused before anything is sent, and never echoed", arguments: ProviderKind.allCases)
    func headerInjection(provider: ProviderKind) async throws {
        let server = try ReplayHTTPServer([.json(provider.textAnswer)])
        let model = provider.model(server, apiKey: "abc-key\r\nX-Injected: 1", retryPolicy: .none)
        let error = await #expect(throws: LanguageModelError.self) { try await model.respond(to: Fixtures.question) }
        guard case .invalidConfiguration(let message)? = error else {
            Issue.record("expected invalidConfiguration, got \(String(describing: error))")
            return
        }
        #expect(message.contains("control character"))
        #expect(!message.contains("abc-key") && !message.contains("X-Injected"))
        #expect(server.requests.isEmpty)
    }
}
