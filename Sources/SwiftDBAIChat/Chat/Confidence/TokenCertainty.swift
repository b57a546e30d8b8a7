import Foundation

/// How sure a model was of the tokens of one answer, from their log-probabilities.
public struct TokenCertainty: Sendable, Hashable {
    /// The mean log-probability of the tokens (0 is certain).
    public var meanLogprob: Double
    /// The lowest: the token the model was least sure of.
    public var minLogprob: Double
    /// Tokens chosen with a probability under one half: places where the model hesitated
    /// between readings.
    public var hesitations: Int
    /// Tokens counted.
    public var count: Int

    /// Reads the log-probabilities of an answer's tokens; nil when there are none.
    ///
    /// Only the statement's own tokens count: when `statement` (the SQL taken from the answer)
    /// is found in the answer's text, the tokens around it (prose, a `<think>` block) are left
    /// out; a code fence, its `sql` tag, whitespace and the end of the answer are always left
    /// out, and a token whose likeliest alternative is the same word in another case (`COUNT` or
    /// `count`, `Track` or `TRACK`) counts as sure of what both mean.
    public init?(_ logprobs: [TokenLogprob]?, statement: String? = nil) {
        guard let logprobs else { return nil }
        var values: [Double] = []
        var afterFence = false
        for token in Self.tokens(of: statement, in: logprobs) {
            let text = token.token.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty || text.contains("`") {
                afterFence = afterFence || text.contains("`")
                continue
            }
            if afterFence, text.lowercased() == "sql" {
                afterFence = false
                continue
            }
            afterFence = false
            var logprob = min(0, token.logprob)
            if let runnerUp = token.runnerUp, let other = token.runnerUpToken,
               other.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == text.lowercased() {
                logprob = min(0, log(exp(logprob) + exp(runnerUp)))
            }
            values.append(logprob)
        }
        guard !values.isEmpty else { return nil }
        meanLogprob = values.reduce(0, +) / Double(values.count)
        minLogprob = values.min() ?? 0
        hesitations = values.filter { $0 < Self.hesitationLogprob }.count
        count = values.count
    }

    /// Creates certainty figures.
    public init(meanLogprob: Double, minLogprob: Double, hesitations: Int, count: Int) {
        self.meanLogprob = meanLogprob
        self.minLogprob = minLogprob
        self.hesitations = hesitations
        self.count = count
    }

    /// log(0.5): a token chosen under this was less likely than all the others together.
    static let hesitationLogprob = -0.6931471805599453

    /// The probability of the least sure token.
    public var lowestProbability: Double { exp(minLogprob) }

    /// The tokens that spell `statement`, where the tokens' text holds it (the last time it
    /// does); all of them otherwise (a statement from a tool call or JSON, escaped differently).
    static func tokens(of statement: String?, in logprobs: [TokenLogprob]) -> ArraySlice<TokenLogprob> {
        guard let statement, !statement.isEmpty else { return logprobs[...] }
        let text = logprobs.map(\.token).joined()
        guard let range = text.range(of: statement, options: .backwards) else { return logprobs[...] }
        let start = text.distance(from: text.startIndex, to: range.lowerBound)
        let end = text.distance(from: text.startIndex, to: range.upperBound)
        var offset = 0
        var first: Int?
        var last = 0
        for (index, token) in logprobs.enumerated() {
            let next = offset + token.token.count
            if next > start, offset < end {
                first = first ?? index
                last = index
            }
            offset = next
        }
        guard let first else { return logprobs[...] }
        return logprobs[first...last]
    }
}
