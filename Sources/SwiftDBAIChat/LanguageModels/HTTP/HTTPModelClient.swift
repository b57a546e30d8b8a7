import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// The HTTP layer every provider shares: posts a JSON body and returns the JSON answer, with a
/// timeout, bounded retries and errors mapped to ``LanguageModelError``.
///
/// The bytes travel through an ``HTTPTransport``; requests run concurrently. Provider messages
/// are scrubbed of API keys before they reach an error.
final class HTTPModelClient: Sendable, CustomReflectable {
    /// Who answers, as errors name it (`OpenAI`, `Ollama at http://127.0.0.1:11434`).
    let provider: String
    /// The longest one attempt may take, from sending the request to the last byte of the answer.
    let timeout: Duration
    /// How failed attempts are retried.
    let retryPolicy: RetryPolicy

    private let transport: any HTTPTransport
    private let redactor: SecretRedactor

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - provider: Who answers, as errors name it.
    ///   - timeout: The longest one attempt may take.
    ///   - retryPolicy: How failed attempts are retried.
    ///   - secrets: Keys to scrub from anything the provider sends back.
    ///   - transport: What carries the requests.
    init(
        provider: String, timeout: Duration, retryPolicy: RetryPolicy, secrets: [APIKey?],
        transport: any HTTPTransport
    ) {
        self.provider = provider
        self.timeout = timeout > .zero ? timeout : .seconds(60)
        self.retryPolicy = retryPolicy
        self.redactor = SecretRedactor(secrets: secrets.compactMap { $0?.secret })
        self.transport = transport
    }

    /// The provider, timeout and retry policy only.
    var customMirror: Mirror {
        Mirror(self, children: ["provider": provider, "timeout": timeout, "retryPolicy": retryPolicy])
    }

    /// Posts `body` as JSON to `url` and returns the JSON object the provider answered.
    ///
    /// - Parameters:
    ///   - headers: Extra headers (authentication, API version). `Content-Type` and `Accept` are
    ///     set to JSON.
    ///   - timeout: The longest each attempt may take, instead of ``timeout``; nil for ``timeout``.
    /// - Throws: ``LanguageModelError``: `.httpStatus` with the provider's message, `.rateLimited`,
    ///   `.timeout`, `.unreachable`, `.unparseableResponse`, `.cancelled`.
    func postJSON(
        to url: URL, headers: [String: String], body: JSONValue, timeout: Duration? = nil
    ) async throws(LanguageModelError) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bodyData: Data
        do {
            bodyData = try encoder.encode(body)
        } catch {
            throw .invalidConfiguration(
                "The request to \(provider) could not be encoded as JSON (a number is NaN or infinite).")
        }
        return try await sendJSON("POST", to: url, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: bodyData, timeout: timeout)
    }

    /// Gets the JSON object at `url` (a server's `/models`, say), with the same timeout, retries
    /// and errors as ``postJSON(to:headers:body:timeout:)``.
    ///
    /// - Throws: ``LanguageModelError``.
    func getJSON(from url: URL, headers: [String: String], timeout: Duration? = nil) async throws(LanguageModelError) -> JSONValue {
        try await sendJSON("GET", to: url, headers: headers, body: nil, timeout: timeout)
    }

    private func sendJSON(
        _ method: String, to url: URL, headers: [String: String], body bodyData: Data?, timeout: Duration?
    ) async throws(LanguageModelError) -> JSONValue {
        let timeout = timeout.flatMap { $0 > .zero ? $0 : nil } ?? self.timeout
        var fields = ["Accept": "application/json"]
        fields.merge(headers) { $1 }
        if let unsafe = fields.first(where: { !Self.isSafeHeaderValue($0.value) }) {
            // Never echo the value: it is usually the API key.
            throw .invalidConfiguration(
                "The \(unsafe.key) header for \(provider) contains a line break or another control character "
                    + "(check the API key in the environment); nothing was sent.")
        }
        let request = HTTPTransportRequest(url: url, method: method, headers: fields, body: bodyData ?? Data())

        var retriesMade = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            let failure: LanguageModelError
            let retryable: Bool
            var retryAfter: Duration?
            switch await attempt(request, timeout: timeout) {
            case .success(let reply) where (200..<300).contains(reply.status):
                return try parse(reply.body)
            case .success(let reply):
                let message = ProviderErrorMessage(body: reply.body, status: reply.status, redactor: redactor)
                retryAfter = reply.retryAfter
                if reply.status == 429, !message.isQuotaExhausted {
                    failure = .rateLimited(provider: provider, retryAfter: retryAfter)
                } else {
                    failure = .httpStatus(provider: provider, status: reply.status, message: message.text)
                }
                retryable = RetryPolicy.retryableStatuses.contains(reply.status) && !message.isQuotaExhausted
            case .failure(let transportError):
                (failure, retryable) = languageModelError(for: transportError, timeout: timeout)
            }
            guard retryable, retriesMade < retryPolicy.maxRetries else { throw failure }
            let delay = retryPolicy.delay(beforeRetry: retriesMade, retryAfter: retryAfter)
            retriesMade += 1
            if delay > .zero {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    /// Whether a header value can be sent as it is: no control characters (a line break in an
    /// API key would otherwise split the request's headers).
    static func isSafeHeaderValue(_ value: String) -> Bool {
        !value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }
    }

    // MARK: - One attempt

    private func attempt(_ request: HTTPTransportRequest, timeout: Duration) async -> Result<HTTPTransportResponse, HTTPTransportError> {
        do {
            return .success(try await sendWithDeadline(request, timeout: timeout))
        } catch let error as HTTPTransportError {
            return .failure(error)
        } catch {
            return .failure(HTTPTransportError(Task.isCancelled ? .cancelled : .other, String(describing: error)))
        }
    }

    /// Sends the request; whichever comes first of the answer, the timeout and cancellation wins,
    /// at once, whatever the transport does. (The request runs in its own task, cancelled when it
    /// loses.)
    private func sendWithDeadline(_ request: HTTPTransportRequest, timeout: Duration) async throws -> HTTPTransportResponse {
        let transport = self.transport
        let outcome = FirstOutcome<HTTPTransportResponse>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.install(continuation)
                let fetch = Task {
                    do throws(HTTPTransportError) {
                        outcome.finish(.success(try await transport.send(request, timeout: timeout)))
                    } catch {
                        outcome.finish(.failure(error))
                    }
                }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if outcome.finish(.failure(HTTPTransportError(.timedOut))) { fetch.cancel() }
                }
                outcome.onFinish { timer.cancel() }
                outcome.onCancel { fetch.cancel() }
            }
        } onCancel: {
            outcome.cancel()
        }
    }

    /// The error a failed attempt reports, and whether it is worth another attempt.
    private func languageModelError(for error: HTTPTransportError, timeout: Duration) -> (LanguageModelError, retryable: Bool) {
        if Task.isCancelled {
            return (.cancelled, false)
        }
        let reason: String
        let isRetryable: Bool
        switch error.code {
        case .timedOut:
            return (.timeout(provider: provider, seconds: timeout.timeInterval), false)
        case .cancelled:
            return (.cancelled, false)
        case .connectionRefused:
            (reason, isRetryable) = ("connection refused", true)
        case .connectionLost:
            (reason, isRetryable) = ("the connection was lost", true)
        case .hostNotFound:
            (reason, isRetryable) = ("the host name could not be resolved", false)
        case .tlsFailure:
            (reason, isRetryable) = ("the TLS connection failed", false)
        case .invalidResponse:
            (reason, isRetryable) = ("the server sent something that is not HTTP", false)
        case .invalidURL:
            (reason, isRetryable) = ("the URL is not a valid http(s) URL", false)
        case .responseTooLarge:
            (reason, isRetryable) = ("the answer is too large", false)
        case .other:
            (reason, isRetryable) = (error.detail.isEmpty ? "network error" : redactor.redact(error.detail), false)
        }
        return (.unreachable(provider: provider, reason: reason), isRetryable)
    }

    private func parse(_ body: Data) throws(LanguageModelError) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            let start = ProviderErrorMessage.shortened(
                redactor.redact(String(decoding: body.prefix(200), as: UTF8.self)))
            throw .unparseableResponse(
                provider: provider, reason: body.isEmpty ? "the body is empty" : "the body is not JSON: \(start)")
        }
        guard json.objectValue != nil else {
            throw .unparseableResponse(provider: provider, reason: "the body is JSON but not an object")
        }
        return json
    }

    /// An unparseable-response error for a provider's answer that lacks what it should hold.
    func missing(_ what: String) -> LanguageModelError {
        .unparseableResponse(provider: provider, reason: "the answer has no \(what)")
    }

    /// Removes keys from text that came from the provider.
    func redact(_ text: String) -> String {
        redactor.redact(text)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
