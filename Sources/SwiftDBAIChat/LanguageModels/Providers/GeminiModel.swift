import Foundation
import SwiftDBAI

/// A Gemini model through the Gemini API (`generateContent`).
///
/// Posts to `{baseURL}/models/{model}:generateContent` with the key in the `x-goog-api-key`
/// header — never in the URL, where it would end up in logs. System messages become
/// `systemInstruction`, the assistant speaks as `model`, tool results are `functionResponse` parts.
///
/// ```swift
/// let model = try GeminiModel.fromEnvironment(model: "gemini-2.5-flash", transport: .asyncHTTPClient)
/// ```
///
/// Structured output uses `responseMimeType: application/json` with `responseSchema`. Schemas (of
/// answers and of tool parameters) are reduced to the OpenAPI subset Gemini accepts (see
/// `GeminiSchema`). A blocked prompt (`promptFeedback.blockReason`) or a `SAFETY`,
/// `RECITATION`, `PROHIBITED_CONTENT`, `BLOCKLIST` or `SPII` finish is
/// ``LanguageModelError/refused(provider:reason:)``.
///
/// Thinking models return a `thoughtSignature` with their function calls that must be sent back
/// with them. ``LanguageModelToolCall`` has no field for it, so it travels inside the call's identifier
/// (`ID#sig=SIGNATURE`): pass identifiers back unchanged, as the protocol asks anyway.
public struct GeminiModel: HTTPLanguageModel, HostedLanguageModel {
    /// `https://generativelanguage.googleapis.com/v1beta`.
    public static let defaultBaseURL = ProviderWire.literalURL("https://generativelanguage.googleapis.com/v1beta")
    /// The environment variable that holds the API key.
    /// The provider's name in messages.
    public static let providerName = "Gemini"
    public static let apiKeyVariable = "GEMINI_API_KEY"

    /// The model name (`gemini-2.5-flash`).
    public let model: String
    /// The base URL; requests go to `{baseURL}/models/{model}:generateContent`.
    public let baseURL: URL
    /// Tool calling and structured output.
    public let capabilities = LanguageModelCapabilities(toolCalling: true, structuredOutput: true)
    /// `gemini:MODEL`.
    public var name: String { "gemini:\(model)" }

    private let apiKey: APIKey?
    private let client: HTTPModelClient

    /// Creates a Gemini model.
    ///
    /// - Parameters:
    ///   - model: The model name (`gemini-2.5-flash`; a `models/` prefix is accepted).
    ///   - transport: What carries the requests: `.asyncHTTPClient` from `SwiftDBAIAsyncHTTPClient`, or
    ///     your own ``HTTPTransport``.
    ///   - apiKey: The key sent in `x-goog-api-key`; nil sends none (for a proxy that adds it).
    ///   - baseURL: The API's base URL, up to and including the version.
    ///   - timeout: The longest one attempt may take (60 s by default).
    ///   - retryPolicy: How transient failures are retried.
    public init(
        model: String,
        transport: any HTTPTransport,
        apiKey: String?,
        baseURL: URL = GeminiModel.defaultBaseURL,
        timeout: Duration = .seconds(60),
        retryPolicy: RetryPolicy = .standard
    ) {
        self.model = model.hasPrefix("models/") ? String(model.dropFirst("models/".count)) : model
        self.baseURL = baseURL
        let key = APIKey(apiKey)
        self.apiKey = key
        self.client = HTTPModelClient(provider: "Gemini", timeout: timeout, retryPolicy: retryPolicy, secrets: [key],
            transport: transport)
    }

    /// Answers one request with `generateContent`.
    ///
    /// - Throws: ``LanguageModelError``.
    public func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        let body = try requestBody(for: request)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._"))
        let modelPath = model.addingPercentEncoding(withAllowedCharacters: allowed) ?? model
        let endpoint = try ProviderWire.endpoint(baseURL, "models/\(modelPath):generateContent")
        var headers: [String: String] = [:]
        if let apiKey {
            headers["x-goog-api-key"] = apiKey.secret
        }
        let json = try await client.postJSON(to: endpoint, headers: headers, body: body, timeout: request.timeout)
        return try response(from: json)
    }

    // MARK: - Wire format

    /// The signature Google documents for function calls that have no real one (a history
    /// written elsewhere); Gemini 3 models reject function calls without any signature.
    static let placeholderThoughtSignature = "skip_thought_signature_validator"

    func requestBody(for request: LanguageModelRequest) throws(LanguageModelError) -> JSONValue {
        var body: [String: JSONValue] = [:]
        let system = request.messages.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        if !system.isEmpty {
            body["systemInstruction"] = ["parts": [["text": .string(system.joined(separator: "\n\n"))]]]
        }
        body["contents"] = .array(try wireContents(request.messages))
        if !request.tools.isEmpty {
            let declarations: [JSONValue] = request.tools.map { tool in
                var declaration: [String: JSONValue] = [
                    "name": .string(tool.name), "description": .string(tool.description),
                ]
                if !GeminiSchema.declaresNoParameters(tool.parameters) {
                    declaration["parameters"] = GeminiSchema.sanitized(tool.parameters)
                }
                return .object(declaration)
            }
            body["tools"] = [["functionDeclarations": .array(declarations)]]
        }
        var generation: [String: JSONValue] = [:]
        if let temperature = request.options.temperature {
            generation["temperature"] = .number(temperature)
        }
        if let maxTokens = request.options.maxTokens {
            generation["maxOutputTokens"] = .number(Double(maxTokens))
        }
        if !request.options.stop.isEmpty {
            generation["stopSequences"] = .array(request.options.stop.map(JSONValue.string))
        }
        if case .jsonSchema(_, let schema) = request.responseFormat {
            generation["responseMimeType"] = "application/json"
            generation["responseSchema"] = GeminiSchema.sanitized(schema)
        }
        if !generation.isEmpty {
            body["generationConfig"] = .object(generation)
        }
        return .object(body)
    }

    /// Messages as Gemini contents: roles `user` and `model`, consecutive turns of one role merged.
    private func wireContents(_ messages: [ChatMessage]) throws(LanguageModelError) -> [JSONValue] {
        let needsSignatures = model.hasPrefix("gemini-3")
        var turns: [(role: String, parts: [JSONValue])] = []
        for message in messages {
            let role: String
            var parts: [JSONValue] = []
            switch message.role {
            case .system:
                continue
            case .user:
                role = "user"
                if !message.content.isEmpty {
                    parts.append(["text": .string(message.content)])
                }
            case .assistant:
                role = "model"
                if !message.content.isEmpty {
                    parts.append(["text": .string(message.content)])
                }
                for (index, call) in message.toolCalls.enumerated() {
                    let identifier = CallIdentifier(call.id)
                    var functionCall: [String: JSONValue] = [
                        "name": .string(call.name), "args": ProviderWire.argumentsObject(call.arguments),
                    ]
                    if let id = identifier.providerID {
                        functionCall["id"] = .string(id)
                    }
                    var part: [String: JSONValue] = ["functionCall": .object(functionCall)]
                    if let signature = identifier.thoughtSignature {
                        part["thoughtSignature"] = .string(signature)
                    } else if needsSignatures, index == 0 {
                        part["thoughtSignature"] = .string(Self.placeholderThoughtSignature)
                    }
                    parts.append(.object(part))
                }
            case .tool:
                role = "user"
                let callID = try ProviderWire.callID(of: message)
                let identifier = CallIdentifier(callID)
                let name = ProviderWire.toolName(forCallID: callID, in: messages) ?? identifier.providerID ?? callID
                var response: [String: JSONValue] = [
                    "name": .string(name), "response": ["content": .string(message.content)],
                ]
                if let id = identifier.providerID {
                    response["id"] = .string(id)
                }
                parts.append(["functionResponse": .object(response)])
            }
            guard !parts.isEmpty else { continue }
            if let last = turns.last, last.role == role {
                turns[turns.count - 1].parts += parts
            } else {
                turns.append((role, parts))
            }
        }
        return turns.map { turn in ["role": .string(turn.role), "parts": .array(turn.parts)] }
    }

    private static let refusingFinishReasons: Set<String> = [
        "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY",
    ]

    func response(from json: JSONValue) throws(LanguageModelError) -> LanguageModelResponse {
        if let blockReason = json["promptFeedback"]?["blockReason"]?.stringValue {
            throw .refused(provider: client.provider, reason: "the prompt was blocked (\(blockReason))")
        }
        guard let candidate = json["candidates"]?.arrayValue?.first else {
            throw client.missing("candidates")
        }
        let finishReason = candidate["finishReason"]?.stringValue
        if let finishReason, Self.refusingFinishReasons.contains(finishReason) {
            throw .refused(provider: client.provider, reason: "the answer was blocked (\(finishReason))")
        }
        var text = ""
        var toolCalls: [LanguageModelToolCall] = []
        for part in candidate["content"]?["parts"]?.arrayValue ?? [] {
            if part["thought"] == .bool(true) { continue }
            if let fragment = part["text"]?.stringValue {
                text += fragment
            }
            if let call = part["functionCall"] {
                guard let name = call["name"]?.stringValue else {
                    throw client.missing("name in a functionCall part")
                }
                let identifier = CallIdentifier(
                    providerID: call["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
                    thoughtSignature: part["thoughtSignature"]?.stringValue)
                toolCalls.append(LanguageModelToolCall(
                    id: identifier.text, name: name, arguments: (call["args"] ?? .object([:])).jsonText))
            }
        }
        let usage = TokenUsage.reported(
            in: json["usageMetadata"], prompt: "promptTokenCount", completion: "candidatesTokenCount",
            cached: { $0["cachedContentTokenCount"] })
        return LanguageModelResponse(text: text, toolCalls: toolCalls, finishReason: finishReason, usage: usage)
    }

    /// A ``LanguageModelToolCall/id`` for Gemini: the provider's call id (or a generated one) and the thought
    /// signature to send back with the call, as `ID#sig=SIGNATURE`.
    struct CallIdentifier: Hashable {
        static let separator = "#sig="
        /// Marks identifiers made here, which are not sent back to Gemini.
        static let generatedPrefix = "swiftdbai-"

        /// Gemini's own id of the call, or nil when Gemini gave none.
        var providerID: String?
        /// The identifier made here when Gemini gave none.
        var generatedID: String?
        /// The thought signature that came with the call.
        var thoughtSignature: String?

        init(providerID: String?, thoughtSignature: String?) {
            self.providerID = providerID
            self.generatedID = providerID == nil ? Self.generatedPrefix + ProviderWire.generatedCallID() : nil
            self.thoughtSignature = thoughtSignature.flatMap { $0.isEmpty ? nil : $0 }
        }

        /// Reads an identifier made by ``text`` (or any other identifier, taken as Gemini's).
        init(_ text: String) {
            let base: String
            if let range = text.range(of: Self.separator) {
                base = String(text[..<range.lowerBound])
                let signature = String(text[range.upperBound...])
                thoughtSignature = signature.isEmpty ? nil : signature
            } else {
                base = text
                thoughtSignature = nil
            }
            if base.hasPrefix(Self.generatedPrefix) {
                generatedID = base
                providerID = nil
            } else {
                providerID = base.isEmpty ? nil : base
                generatedID = nil
            }
        }

        var text: String {
            let base = providerID ?? generatedID ?? ""
            return thoughtSignature.map { base + Self.separator + $0 } ?? base
        }
    }
}
