import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP layer every provider shares: posts a JSON body and returns the JSON answer, with a
/// timeout, bounded retries and errors mapped to ``LanguageModelError``.
///
/// One client owns one ephemeral `URLSession` (no cookies, no cache, no stored credentials).
/// On Linux every request waits its turn at ``RequestLimiter/shared`` first, because
/// FoundationNetworking has crashed under concurrent requests. Provider messages are scrubbed of
/// API keys before they reach an error.
final class HTTPModelClient: Sendable, CustomReflectable {
    /// Who answers, as errors name it (`OpenAI`, `Ollama at http://127.0.0.1:11434`).
    let provider: String
    /// The longest one attempt may take, from sending the request to the last byte of the answer.
    let timeout: Duration
    /// How failed attempts are retried.
    let retryPolicy: RetryPolicy

    private let session: URLSession
    private let redactor: SecretRedactor

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - provider: Who answers, as errors name it.
    ///   - timeout: The longest one attempt may take.
    ///   - retryPolicy: How failed attempts are retried.
    ///   - secrets: Keys to scrub from anything the provider sends back.
    init(provider: String, timeout: Duration, retryPolicy: RetryPolicy, secrets: [APIKey?]) {
        self.provider = provider
        self.timeout = timeout > .zero ? timeout : .seconds(60)
        self.retryPolicy = retryPolicy
        self.redactor = SecretRedactor(secrets: secrets.compactMap { $0?.secret })
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = self.timeout.timeInterval + 5
        configuration.timeoutIntervalForResource = self.timeout.timeInterval + 5
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The provider, timeout and retry policy only.
    var customMirror: Mirror {
        Mirror(self, children: ["provider": provider, "timeout": timeout, "retryPolicy": retryPolicy])
    }

    /// Posts `body` as JSON to `url` and returns the JSON object the provider answered.
    ///
    /// - Parameter headers: Extra headers (authentication, API version). `Content-Type` and
    ///   `Accept` are set to JSON.
    /// - Throws: ``LanguageModelError``: `.httpStatus` with the provider's message, `.rateLimited`,
    ///   `.timeout`, `.unreachable`, `.unparseableResponse`, `.cancelled`.
    func postJSON(to url: URL, headers: [String: String], body: JSONValue) async throws(LanguageModelError) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bodyData: Data
        do {
            bodyData = try encoder.encode(body)
        } catch {
            throw .invalidConfiguration(
                "The request to \(provider) could not be encoded as JSON (a number is NaN or infinite).")
        }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = bodyData
        request.timeoutInterval = timeout.timeInterval + 5
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }

        var retriesMade = 0
        while true {
            if Task.isCancelled { throw .cancelled }
            let failure: LanguageModelError
            let retryable: Bool
            var retryAfter: Duration?
            switch await attempt(request) {
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
            case .failure(let transportFailure):
                failure = transportFailure.error
                retryable = transportFailure.isRetryable
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

    // MARK: - One attempt

    /// What one attempt received: a status, its headers and body.
    struct Reply: Sendable {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: Data

        /// The wait the provider asked for (`Retry-After` in seconds or as an HTTP date,
        /// `retry-after-ms`).
        var retryAfter: Duration? {
            if let milliseconds = headers["retry-after-ms"].flatMap(Double.init), milliseconds >= 0 {
                return .milliseconds(Int64(milliseconds.rounded()))
            }
            guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
            if let seconds = Double(value), seconds >= 0, seconds.isFinite {
                return .milliseconds(Int64((seconds * 1000).rounded()))
            }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            guard let date = formatter.date(from: value) else { return nil }
            return .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000))
        }
    }

    /// A failed attempt that produced no HTTP answer.
    struct TransportFailure: Error {
        var error: LanguageModelError
        var isRetryable: Bool
    }

    private func attempt(_ request: URLRequest) async -> Result<Reply, TransportFailure> {
        do {
            #if canImport(FoundationNetworking)
            let reply = try await RequestLimiter.shared.withPermit {
                try await self.sendWithDeadline(request)
            }
            #else
            let reply = try await sendWithDeadline(request)
            #endif
            return .success(reply)
        } catch {
            return .failure(transportFailure(for: error))
        }
    }

    /// Sends the request; whichever comes first of the answer, the timeout and cancellation wins,
    /// at once. (Awaiting a cancelled URLSession task can take as long as the server does on
    /// Linux, so the request runs in its own task and is abandoned — cancelled — when it loses.)
    private func sendWithDeadline(_ request: URLRequest) async throws -> Reply {
        let session = self.session
        let timeout = self.timeout
        let outcome = FirstOutcome<Reply>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.install(continuation)
                let fetch = Task {
                    do {
                        let (data, response) = try await session.data(for: request)
                        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
                        var headers: [String: String] = [:]
                        for (name, value) in http.allHeaderFields {
                            if let name = name as? String, let value = value as? String {
                                headers[name.lowercased()] = value
                            }
                        }
                        outcome.finish(.success(Reply(status: http.statusCode, headers: headers, body: data)))
                    } catch {
                        outcome.finish(.failure(error))
                    }
                }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if outcome.finish(.failure(URLError(.timedOut))) { fetch.cancel() }
                }
                outcome.onFinish { timer.cancel() }
                outcome.onCancel { fetch.cancel() }
            }
        } onCancel: {
            outcome.cancel()
        }
    }

    private func transportFailure(for error: any Error) -> TransportFailure {
        if Task.isCancelled || error is CancellationError {
            return TransportFailure(error: .cancelled, isRetryable: false)
        }
        guard let urlError = error as? URLError else {
            return TransportFailure(
                error: .unreachable(provider: provider, reason: redactor.redact(String(describing: error))),
                isRetryable: false)
        }
        let reason: String
        let isRetryable: Bool
        switch urlError.code {
        case .timedOut:
            return TransportFailure(error: .timeout(provider: provider, seconds: timeout.timeInterval), isRetryable: false)
        case .cancelled:
            return TransportFailure(error: .cancelled, isRetryable: false)
        case .cannotConnectToHost:
            (reason, isRetryable) = ("connection refused", true)
        case .networkConnectionLost:
            (reason, isRetryable) = ("the connection was lost", true)
        case .notConnectedToInternet:
            (reason, isRetryable) = ("no network connection", true)
        case .cannotFindHost, .dnsLookupFailed:
            (reason, isRetryable) = ("the host name could not be resolved", false)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            (reason, isRetryable) = ("the TLS connection failed", false)
        case .badServerResponse:
            (reason, isRetryable) = ("the server sent something that is not HTTP", false)
        case .unsupportedURL, .badURL:
            (reason, isRetryable) = ("the URL is not a valid http(s) URL", false)
        default:
            (reason, isRetryable) = ("network error \(urlError.code.rawValue)", false)
        }
        return TransportFailure(error: .unreachable(provider: provider, reason: reason), isRetryable: isRetryable)
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
