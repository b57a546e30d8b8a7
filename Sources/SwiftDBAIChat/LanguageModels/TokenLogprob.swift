import SwiftDBAI

/// How likely a model found one token it generated: its natural log-probability, and that of the
/// likeliest other token at the same place, when the provider says.
///
/// A token the model was sure of has a log-probability near 0; one chosen between two near-equal
/// options has both near `log(0.5)`. A ``ChatEngine`` reads them as one sign of how sure the model
/// was of its statement (``AnswerConfidence``).
public struct TokenLogprob: Sendable, Hashable {
    /// The token's text.
    public var token: String
    /// Its natural log-probability (0 is certain).
    public var logprob: Double
    /// The log-probability of the likeliest other token at this place, when the provider gave
    /// alternatives.
    public var runnerUp: Double?
    /// That other token's text.
    public var runnerUpToken: String?

    /// Creates a token's probability.
    public init(token: String, logprob: Double, runnerUp: Double? = nil, runnerUpToken: String? = nil) {
        self.token = token
        self.logprob = logprob
        self.runnerUp = runnerUp
        self.runnerUpToken = runnerUpToken
    }
}
