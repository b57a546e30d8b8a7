import Foundation

/// What a ``ChatEngine`` knew about an answer when it judged how sure to be of it: every signal
/// ``AnswerConfidence`` weighs, as measured for this answer.
public struct ConfidenceEvidence: Sendable, Hashable {
    /// How sure the model was of the tokens of the statement that ran, when its provider gives
    /// log-probabilities; nil otherwise.
    public var tokens: TokenCertainty?
    /// Statements written for the vote, the first one included (1 when no other candidate was
    /// written).
    public var candidatesWritten: Int
    /// Of those, the statements that returned rows (0 or 1 without a vote).
    public var candidatesCast: Int
    /// Of those, the statements that returned the same rows as the one that ran.
    public var candidatesAgreeing: Int
    /// Statements of the model that failed in SQLite before one ran.
    public var failedStatements: Int
    /// True when a repair of the rewrite pipeline made the statement that ran.
    public var repaired: Bool
    /// True when the question was asked afresh with only its tables after a failure.
    public var askedAfresh: Bool
    /// True when a read that ran first was shown to the model again (no rows, or doubts).
    public var lookedAgain: Bool
    /// True when that second look replaced the first read.
    public var replaced: Bool
    /// True when the read returned no rows.
    public var emptyResult: Bool
    /// True when it returned one row of NULLs only (an aggregate over nothing).
    public var nullResult: Bool
    /// How many doubts the answer carries.
    public var doubts: Int
    /// Columns the statement reads that nothing in the question, the user's descriptions or the
    /// examples like it points to (`table.column`).
    public var unrelatedColumns: [String]

    /// Evidence of an answer.
    public init(
        tokens: TokenCertainty? = nil, candidatesWritten: Int = 1, candidatesCast: Int = 1, candidatesAgreeing: Int = 1,
        failedStatements: Int = 0,
        repaired: Bool = false, askedAfresh: Bool = false, lookedAgain: Bool = false, replaced: Bool = false,
        emptyResult: Bool = false, nullResult: Bool = false, doubts: Int = 0, unrelatedColumns: [String] = []
    ) {
        self.tokens = tokens
        self.candidatesWritten = candidatesWritten
        self.candidatesCast = candidatesCast
        self.candidatesAgreeing = candidatesAgreeing
        self.failedStatements = failedStatements
        self.repaired = repaired
        self.askedAfresh = askedAfresh
        self.lookedAgain = lookedAgain
        self.replaced = replaced
        self.emptyResult = emptyResult
        self.nullResult = nullResult
        self.doubts = doubts
        self.unrelatedColumns = unrelatedColumns
    }

    /// True when other candidates were written to vote on the answer.
    public var voted: Bool { candidatesWritten > 1 }
}

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
    /// Only the statement's own tokens count: a code fence, its `sql` tag, whitespace and the end
    /// of the answer are left out, and a token whose likeliest alternative is the same word in
    /// another case (`COUNT` or `count`, `Track` or `TRACK`) counts as sure of what both mean.
    public init?(_ logprobs: [TokenLogprob]?) {
        guard let logprobs else { return nil }
        var values: [Double] = []
        var afterFence = false
        for token in logprobs {
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
}
