import SwiftDBAI

/// How many tokens one model request used, as the provider reports them.
///
/// Providers that report nothing (the MCP client's model through sampling, some local servers)
/// leave ``LanguageModelResponse/usage`` nil.
public struct TokenUsage: Sendable, Hashable {
    /// Tokens of the prompt the model read (the whole prompt, cached part included).
    public var promptTokens: Int
    /// Tokens the model generated.
    public var completionTokens: Int
    /// Tokens of the prompt served from the provider's prompt cache, when it says.
    public var cachedPromptTokens: Int?

    /// Creates a usage report.
    public init(promptTokens: Int, completionTokens: Int, cachedPromptTokens: Int? = nil) {
        self.promptTokens = max(0, promptTokens)
        self.completionTokens = max(0, completionTokens)
        self.cachedPromptTokens = cachedPromptTokens.map { max(0, $0) }
    }

    /// The sum of two reports (a cached count is kept only when both say one).
    public static func + (left: TokenUsage, right: TokenUsage) -> TokenUsage {
        TokenUsage(
            promptTokens: left.promptTokens + right.promptTokens,
            completionTokens: left.completionTokens + right.completionTokens,
            cachedPromptTokens: left.cachedPromptTokens.flatMap { cached in right.cachedPromptTokens.map { cached + $0 } })
    }

    /// The usage in a provider's JSON answer: the integer members at the given keys of `object`
    /// (a missing prompt or completion count reads as 0; both missing is no report).
    static func reported(
        in object: JSONValue?, prompt: String, completion: String, cached: (JSONValue) -> JSONValue? = { _ in nil }
    ) -> TokenUsage? {
        guard let object else { return nil }
        let promptCount = object[prompt]?.intValue
        let completionCount = object[completion]?.intValue
        guard promptCount != nil || completionCount != nil else { return nil }
        return TokenUsage(
            promptTokens: promptCount ?? 0, completionTokens: completionCount ?? 0, cachedPromptTokens: cached(object)?.intValue)
    }
}

extension JSONValue {
    /// The number, when this is a whole number that fits an `Int`.
    var intValue: Int? {
        guard case .number(let number) = self, number.rounded() == number, abs(number) < 9e15 else { return nil }
        return Int(number)
    }
}
