import Foundation

/// An API key that never shows itself: its description, debug description and mirror are
/// redacted, so printing, dumping or logging a model never reveals it.
struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret, for the one header that carries it.
    let secret: String

    /// Wraps a key; nil when the text is nil, empty or only whitespace.
    init?(_ text: String?) {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        secret = trimmed
    }

    /// Reads a key from an environment variable.
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` naming the variable when it is
    ///   missing or empty.
    static func required(_ variable: String, in environment: [String: String], for provider: String)
        throws(LanguageModelError) -> APIKey
    {
        guard let key = APIKey(environment[variable]) else {
            throw .invalidConfiguration(
                "\(provider) needs an API key: set the environment variable \(variable).")
        }
        return key
    }

    var description: String { "[redacted API key]" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
