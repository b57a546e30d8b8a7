import Foundation
import SwiftDBAI

/// Small pieces the provider wire formats share: endpoints, tool-call identifiers and arguments.
enum ProviderWire {
    /// A URL written in the source, known to be valid.
    static func literalURL(_ text: StaticString) -> URL {
        guard let url = URL(string: "\(text)") else {
            preconditionFailure("Invalid URL literal \(text)")
        }
        return url
    }

    /// `base` with `path` appended (`https://api.openai.com/v1` + `chat/completions`).
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` when the result is not a URL.
    static func endpoint(_ base: URL, _ path: String) throws(LanguageModelError) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text + "/" + path), url.scheme == "http" || url.scheme == "https" else {
            throw .invalidConfiguration(
                "The base URL \(displayed(base)) is not an http(s) URL (for example http://127.0.0.1:8080/v1).")
        }
        return url
    }

    /// A base URL as errors show it: without user, password, query or fragment.
    static func displayed(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(invalid URL)" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        var text = components.string ?? "(invalid URL)"
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// An identifier for a tool call the provider did not name (`call_5f3a…`).
    static func generatedCallID() -> String {
        "call_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
    }

    /// Tool-call arguments as a JSON object, for providers that want an object rather than text.
    /// Text that is not a JSON object becomes an empty object.
    static func argumentsObject(_ arguments: String) -> JSONValue {
        guard let value = try? JSONValue(parsing: arguments), value.objectValue != nil else {
            return .object([:])
        }
        return value
    }

    /// Arguments as the protocol carries them: JSON text (a provider may send an object or text).
    static func argumentsText(_ arguments: JSONValue?) -> String {
        switch arguments {
        case .string(let text)?: return text
        case nil, .null?: return "{}"
        case let value?: return value.jsonText
        }
    }

    /// The name of the tool a call identifier belongs to, from the assistant messages before.
    static func toolName(forCallID id: String, in messages: [ChatMessage]) -> String? {
        for message in messages.reversed() where message.role == .assistant {
            if let call = message.toolCalls.first(where: { $0.id == id }) {
                return call.name
            }
        }
        return nil
    }

    /// The call identifier of a `tool` message.
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` when the message has none.
    static func callID(of message: ChatMessage) throws(LanguageModelError) -> String {
        guard let id = message.toolCallID, !id.isEmpty else {
            throw .invalidConfiguration(
                "A tool message needs the id of the tool call it answers (ChatMessage.tool(_:callID:)).")
        }
        return id
    }

    /// Tools declared the way OpenAI's chat completions and Ollama's `/api/chat` read them:
    /// `{"type": "function", "function": {name, description, parameters}}`.
    static func functionTools(_ tools: [LanguageModelTool]) -> JSONValue {
        .array(tools.map { tool in
            [
                "type": "function",
                "function": [
                    "name": .string(tool.name), "description": .string(tool.description), "parameters": tool.parameters,
                ],
            ]
        })
    }

    /// Rejects tools for a model configured without tool calling.
    static func checkTools(_ request: LanguageModelRequest, capabilities: LanguageModelCapabilities, name: String)
        throws(LanguageModelError)
    {
        if !request.tools.isEmpty, !capabilities.toolCalling {
            throw .invalidConfiguration(
                "\(name) is configured without tool calling; send the request without tools or enable it in its capabilities.")
        }
    }

    /// A JSON object without the members whose value is nil.
    static func object(_ members: [String: JSONValue?]) -> JSONValue {
        .object(members.compactMapValues { $0 })
    }

    /// The `tool_calls` of an OpenAI-style message (OpenAI's chat completions, Ollama's chat):
    /// `[{"id", "function": {"name", "arguments"}}]`, arguments as a JSON string or object. A
    /// call without an id gets one.
    ///
    /// - Throws: ``LanguageModelError/unparseableResponse(provider:reason:)`` for a call without
    ///   a function name.
    static func functionCalls(in message: JSONValue, client: HTTPModelClient) throws(LanguageModelError)
        -> [LanguageModelToolCall]
    {
        var calls: [LanguageModelToolCall] = []
        for call in message["tool_calls"]?.arrayValue ?? [] {
            guard let function = call["function"], let name = function["name"]?.stringValue else {
                throw client.missing("function name in a tool call")
            }
            calls.append(LanguageModelToolCall(
                id: call["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? generatedCallID(),
                name: name,
                arguments: argumentsText(function["arguments"])))
        }
        return calls
    }

    /// The generated tokens' log-probabilities in the OpenAI form (an array of `{token, logprob,
    /// top_logprobs}`, which Ollama uses too), each with the likeliest other token's; nil when
    /// there are none.
    static func tokenLogprobs(_ entries: JSONValue?) -> [TokenLogprob]? {
        guard let entries = entries?.arrayValue, !entries.isEmpty else { return nil }
        return entries.compactMap { entry in
            guard case .number(let logprob)? = entry["logprob"] else { return nil }
            let token = entry["token"]?.stringValue ?? ""
            let others = (entry["top_logprobs"]?.arrayValue ?? []).compactMap { other -> (token: String, logprob: Double)? in
                guard let text = other["token"]?.stringValue, text != token, case .number(let value)? = other["logprob"] else { return nil }
                return (text, value)
            }
            let runnerUp = others.max { $0.logprob < $1.logprob }
            return TokenLogprob(token: token, logprob: logprob, runnerUp: runnerUp?.logprob, runnerUpToken: runnerUp?.token)
        }
    }
}
