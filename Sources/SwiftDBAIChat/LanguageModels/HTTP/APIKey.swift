import Foundation
import SwiftDBAI

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
        guard let key = try optional(variable, in: environment) else {
            throw .invalidConfiguration(
                "\(provider) needs an API key: set the environment variable \(variable).")
        }
        return key
    }

    /// Reads a key that may be absent from an environment variable.
    ///
    /// - Throws: ``LanguageModelError/invalidConfiguration(_:)`` naming the variable when the key
    ///   holds a line break or another control character (it could not be sent as a header).
    static func optional(_ variable: String, in environment: [String: String]) throws(LanguageModelError) -> APIKey? {
        guard let key = APIKey(environment[variable]) else { return nil }
        guard HTTPModelClient.isSafeHeaderValue(key.secret) else {
            throw .invalidConfiguration(
                "The environment variable \(variable) holds a line break or another control character; "
                    + "set it to the API key alone.")
        }
        return key
    }

    var description: String { "[redacted API key]" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
