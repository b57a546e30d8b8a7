import Foundation
import SwiftDBAI

/// A language model behind an HTTP API at a base URL. Its text and reflection show the model's
/// name and base URL only, so printing or dumping a model never shows its API key.
public protocol HTTPLanguageModel: LanguageModel, CustomStringConvertible, CustomReflectable {
    /// The API's base URL.
    var baseURL: URL { get }
}

extension HTTPLanguageModel {
    /// The type, name and base URL (never the key): `AnthropicModel(anthropic:claude… at https://…)`.
    public var description: String { "\(Self.self)(\(name) at \(ProviderWire.displayed(baseURL)))" }

    /// Name and base URL only.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "baseURL": ProviderWire.displayed(baseURL)], displayStyle: .struct)
    }
}
