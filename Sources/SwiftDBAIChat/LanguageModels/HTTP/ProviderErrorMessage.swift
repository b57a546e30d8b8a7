import Foundation
import SwiftDBAI

/// Reads a provider's own error message out of an HTTP error body, with secrets removed.
///
/// Understands the shapes the providers send:
/// - OpenAI, llama.cpp server, LM Studio: `{"error": {"message": "…", "type": "…", "code": …}}`
/// - Anthropic: `{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`
/// - Gemini: `{"error": {"code": 400, "message": "…", "status": "INVALID_ARGUMENT"}}`
/// - Ollama, some proxies: `{"error": "model \"x\" not found"}`
/// - vLLM: `{"object": "error", "message": "…", "type": "BadRequestError"}`
/// - FastAPI servers (llama-cpp-python): `{"detail": …}`
/// Anything else becomes the start of the body as text.
struct ProviderErrorMessage: Sendable, Hashable {
    /// The human message.
    var message: String
    /// The provider's error kind (`overloaded_error`, `INVALID_ARGUMENT`, `insufficient_quota`).
    var kind: String?
    /// The provider's error code when it is text (`insufficient_quota`, `invalid_api_key`).
    var code: String?

    /// The longest message kept, in characters.
    static let maximumLength = 600

    /// The account ran out of credit (OpenAI answers 429 for it): retrying cannot help.
    var isQuotaExhausted: Bool {
        kind == "insufficient_quota" || code == "insufficient_quota"
    }

    /// The message with its kind, as shown in ``LanguageModelError/httpStatus(provider:status:message:)``.
    var text: String {
        guard let kind, !kind.isEmpty, !message.contains(kind) else { return message }
        return "\(message) (\(kind))"
    }

    /// Extracts the message of an error body.
    init(body: Data, status: Int, redactor: SecretRedactor) {
        let parsed = try? JSONDecoder().decode(JSONValue.self, from: body)
        var message: String?
        var kind: String?
        var code: String?
        if let parsed {
            switch parsed["error"] {
            case .string(let text)?:
                message = text
            case .object(let error)?:
                message = error["message"]?.stringValue
                kind = error["status"]?.stringValue ?? error["type"]?.stringValue
                code = error["code"]?.stringValue
            default:
                break
            }
            if message == nil, let text = parsed["message"]?.stringValue {
                message = text
                kind = kind ?? parsed["type"]?.stringValue
            }
            if message == nil, let detail = parsed["detail"] {
                message = detail.stringValue ?? detail.jsonText
            }
        }
        if message == nil || message?.isEmpty == true {
            let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            message = text.isEmpty ? Self.reasonPhrase(for: status) : text
        }
        self.message = Self.shortened(redactor.redact(message ?? ""))
        self.kind = kind.map { redactor.redact($0) }
        self.code = code.map { redactor.redact($0) }
    }

    /// The standard reason phrase of a status an empty error body leaves unexplained.
    static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 400: "bad request"
        case 401: "unauthorized"
        case 402: "payment required"
        case 403: "forbidden"
        case 404: "not found"
        case 405: "method not allowed"
        case 408: "request timeout"
        case 409: "conflict"
        case 413: "payload too large"
        case 415: "unsupported media type"
        case 422: "unprocessable content"
        case 429: "too many requests"
        case 500: "internal server error"
        case 501: "not implemented"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timeout"
        case 529: "overloaded"
        case 300..<400: "redirection"
        case 400..<500: "client error"
        case 500..<600: "server error"
        default: "unexpected status"
        }
    }

    static func shortened(_ text: String) -> String {
        let flattened = text.replacingOccurrences(of: "\n", with: " ")
        guard flattened.count > maximumLength else { return flattened }
        return String(flattened.prefix(maximumLength)) + "…"
    }
}

/// Removes API keys from text that came from a provider or the network, before it reaches an
/// error or a log.
///
/// Removes the exact keys it was given, and tokens that look like keys even when a provider
/// echoes them partly masked (`sk-proj-****abcd`, `AIza…`).
struct SecretRedactor: Sendable, CustomReflectable {
    static let replacement = "[redacted]"
    private let secrets: [String]

    init(secrets: [String]) {
        self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// No children: the keys stay out of `dump`.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.replacement)
        }
        result = result.replacing(/sk-[A-Za-z0-9_\-*.]{4,}/, with: Self.replacement)
        result = result.replacing(/AIza[0-9A-Za-z_\-]{10,}/, with: Self.replacement)
        return result
    }
}
