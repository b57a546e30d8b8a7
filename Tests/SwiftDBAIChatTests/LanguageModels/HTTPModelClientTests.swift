import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient

@Suite("HTTP model client: backoff, Retry-After, error messages, concurrency")
struct HTTPModelClientTests {
    typealias Fixtures = LanguageModelFixtures

    @Test(
        "exponential backoff with jitter, capped",
        arguments: [
            (0, 0.0, Duration.milliseconds(250)), (0, 1.0, .milliseconds(500)), (1, 1.0, .seconds(1)),
            (2, 0.5, .milliseconds(1500)), (3, 1.0, .seconds(4)), (4, 1.0, .seconds(8)), (9, 1.0, .seconds(8)),
            (9, 0.0, .seconds(4)),
        ])
    func backoff(retry: Int, jitter: Double, expected: Duration) {
        #expect(RetryPolicy.standard.delay(beforeRetry: retry, retryAfter: nil, jitter: jitter) == expected)
    }

    @Test("Retry-After replaces the backoff and is capped at maxDelay")
    func retryAfterDelay() {
        let policy = RetryPolicy.standard
        #expect(policy.delay(beforeRetry: 3, retryAfter: .zero, jitter: 1) == .zero)
        #expect(policy.delay(beforeRetry: 0, retryAfter: .seconds(3), jitter: 0) == .seconds(3))
        #expect(policy.delay(beforeRetry: 0, retryAfter: .seconds(600), jitter: 0) == .seconds(8))
        #expect(RetryPolicy(maxRetries: -3, baseDelay: .seconds(-1)).maxRetries == 0)
        #expect(RetryPolicy(baseDelay: .zero).delay(beforeRetry: 5, retryAfter: nil) == .zero)
    }

    @Test(
        "Retry-After headers are read in seconds, decimals and milliseconds; absurd waits count as a day",
        arguments: [
            (["retry-after": "2"], Duration?.some(.seconds(2))), (["retry-after": "0.25"], .milliseconds(250)),
            (["retry-after-ms": "1500", "retry-after": "9"], .milliseconds(1500)), (["retry-after": "soon"], nil),
            ([:], nil), (["retry-after": "-4"], nil), (["retry-after": "nan"], nil),
            (["retry-after": "1e300"], .seconds(86_400)), (["retry-after-ms": "inf"], .seconds(86_400)),
            (["Retry-After": "3"], .seconds(3)),
        ])
    func retryAfterHeader(headers: [String: String], expected: Duration?) {
        #expect(HTTPTransportResponse(status: 429, headers: headers, body: Data()).retryAfter == expected)
    }

    @Test("Retry-After as an HTTP date is the time until then")
    func retryAfterDate() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let header = formatter.string(from: Date().addingTimeInterval(30))
        let wait = try #require(HTTPTransportResponse(status: 503, headers: ["retry-after": header], body: Data()).retryAfter)
        #expect(wait > .seconds(25) && wait <= .seconds(30))
    }

    @Test(
        "the provider's message is read from each error shape",
        arguments: [
            (#"{"error":{"message":"Invalid model","type":"invalid_request_error","param":"model","code":null}}"#,
             "Invalid model (invalid_request_error)"),
            (#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, "Overloaded (overloaded_error)"),
            (#"{"error":{"code":403,"message":"Permission denied.","status":"PERMISSION_DENIED"}}"#,
             "Permission denied. (PERMISSION_DENIED)"),
            (#"{"error":"model \"llama3\" not found, try pulling it first"}"#, #"model "llama3" not found, try pulling it first"#),
            (#"{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}"#,
             "max_tokens is too large (BadRequestError)"),
            (#"{"detail":"Not Found"}"#, "Not Found"),
            ("<html><body>502 Bad Gateway</body></html>", "<html><body>502 Bad Gateway</body></html>"),
        ])
    func errorMessages(body: String, expected: String) {
        let message = ProviderErrorMessage(body: Data(body.utf8), status: 400, redactor: SecretRedactor(secrets: []))
        #expect(message.text == expected)
    }

    @Test("an empty error body falls back to the status text; a long one is shortened")
    func errorMessageFallbacks() {
        let redactor = SecretRedactor(secrets: [])
        #expect(!ProviderErrorMessage(body: Data(), status: 503, redactor: redactor).text.isEmpty)
        let long = ProviderErrorMessage(body: Data(String(repeating: "x", count: 5000).utf8), status: 500, redactor: redactor)
        #expect(long.text.count == ProviderErrorMessage.maximumLength + 1)
    }

    @Test("keys are scrubbed: exact keys, OpenAI-style and Google-style tokens")
    func redaction() {
        let redactor = SecretRedactor(secrets: ["my-own-secret-value"])
        #expect(redactor.redact("got my-own-secret-value here") == "got [redacted] here")
        #expect(redactor.redact("Incorrect API key provided: sk-proj-****abcd.") == "Incorrect API key provided: [redacted]")
        #expect(redactor.redact("key AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv is invalid") == "key [redacted] is invalid")
        #expect(redactor.redact("nothing secret") == "nothing secret")
    }

    @Test("32 concurrent requests all succeed, three rounds in a row")
    func concurrentRequests() async throws {
        let server = try ReplayHTTPServer(
            [], whenExhausted: .json(OpenAIWire.textAnswer, delay: .milliseconds(5)))
        let model = OpenAICompatibleModel(
            model: "qwen", transport: .asyncHTTPClient, baseURL: server.url("v1"), timeout: .seconds(30), retryPolicy: .none)
        for round in 1...3 {
            let texts = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<32 {
                    group.addTask { try await model.respond(to: Fixtures.question).text }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(texts.count == 32)
            #expect(texts.allSatisfy { $0 == "There are 347 albums." })
            #expect(server.requests.count == 32 * round)
        }
    }

    @Test("five model calls are in flight at once: nothing serialises them, on any platform")
    func concurrentCalls() async throws {
        let server = try ReplayHTTPServer(
            [], whenExhausted: .json(OpenAIWire.textAnswer), holdUntilConcurrent: 5)
        let model = OpenAICompatibleModel(
            model: "qwen", transport: .asyncHTTPClient, baseURL: server.url("v1"), timeout: .seconds(30),
            retryPolicy: .none)
        let texts = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 {
                group.addTask { try await model.respond(to: Fixtures.question).text }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(texts == Array(repeating: "There are 347 albums.", count: 5))
        #expect(server.mostConcurrentRequests == 5)
    }

    @Test("a request's own timeout replaces the model's, both longer and shorter")
    func requestTimeout() async throws {
        let slow = try ReplayHTTPServer([], whenExhausted: .json(OpenAIWire.textAnswer, delay: .milliseconds(1500)))
        let impatient = OpenAICompatibleModel(
            model: "qwen", transport: .asyncHTTPClient, baseURL: slow.url("v1"), timeout: .milliseconds(300), retryPolicy: .none)
        var patient = Fixtures.question
        patient.timeout = .seconds(20)
        #expect(try await impatient.respond(to: patient).text == "There are 347 albums.")
        #expect(await Self.timeoutSeconds(of: impatient, Fixtures.question) == 0.3)

        let hung = try ReplayHTTPServer([], whenExhausted: .json(OpenAIWire.textAnswer, delay: .seconds(30)))
        let lenient = OpenAICompatibleModel(
            model: "qwen", transport: .asyncHTTPClient, baseURL: hung.url("v1"), timeout: .seconds(60), retryPolicy: .none)
        var short = Fixtures.question
        short.timeout = .milliseconds(300)
        // Waited out, the request would succeed after 30 s: the timeout says it was not.
        #expect(await Self.timeoutSeconds(of: lenient, short) == 0.3)
    }

    /// The seconds a `.timeout` error reports, or nil when the request ends otherwise.
    static func timeoutSeconds(of model: OpenAICompatibleModel, _ request: LanguageModelRequest) async -> Double? {
        do {
            _ = try await model.respond(to: request)
            return nil
        } catch {
            guard case .timeout(_, let seconds) = error else { return nil }
            return seconds
        }
    }
}
