import SwiftDBAI

/// The answer to one question.
public struct ChatResponse: Sendable, Hashable {
    /// A plain-language answer.
    public var summary: String
    /// The statement that ran.
    public var sql: String
    /// The statement the model wrote, before any rewrite (equal to ``sql`` when nothing changed
    /// it).
    public var modelSQL: String
    /// Every rewrite that made ``sql`` of ``modelSQL``, in the order applied: empty when the
    /// model's own statement ran.
    public var rewrites: [AppliedRewrite] = []
    /// The rows, for a read.
    public var queryResult: QueryResult?
    /// The change made, for a write.
    public var mutationResult: MutationResult?
    /// A chart that suits the rows, when one does.
    public var chart: ChartSpecification?
    /// Model calls used to get SQL that ran (1 when the first SQL worked).
    public var attempts: Int
    /// Every model call made for this answer: the SQL attempts and the summary.
    public var modelCalls: Int = 0
    /// The tokens of those calls, summed, when the model reports them.
    public var usage: TokenUsage?

    /// What looks wrong in the answer, one fact each, for the user to check before trusting it:
    /// a value the column does not hold (`'Virginia' is not a value of customers.state; its
    /// values are …`), keys of different tables compared, statements of the model that disagree.
    /// Empty when nothing does.
    public var doubts: [String] = []

    /// What the model was told when it was asked to look at its statement again, one line each
    /// (a read that returned nothing, a value its column does not hold, a reading of the question
    /// the statement may have missed); empty when its first statement stood unquestioned.
    public var lookedAgainFor: [String] = []

    /// The statement the model wrote first, which ran, when its second look (see
    /// ``lookedAgainFor``) replaced it with ``modelSQL``; nil when the first statement stands.
    public var replacedSQL: String?

    /// How sure the answer is, and why: read it before trusting the answer (a low one says what
    /// to check).
    public var confidence: AnswerConfidence

    /// One statement the model wrote for the vote on a read's answer (``ChatConfiguration/candidates``).
    public struct Candidate: Sendable, Hashable {
        /// The statement that ran (nil when the model wrote no SQL).
        public var sql: String?
        /// The result it returned, numbered in the order results first appeared (the first
        /// statement's is 0); candidates with the same number returned the same rows. Nil when it
        /// cast no vote: it failed, found nothing or would write.
        public var result: Int?
        /// True when it returned the rows of the answer.
        public var agreesWithAnswer: Bool
        /// How sure the model was of its tokens, when the provider says.
        public var tokens: TokenCertainty?

        /// Creates a candidate.
        public init(sql: String?, result: Int?, agreesWithAnswer: Bool, tokens: TokenCertainty? = nil) {
            self.sql = sql
            self.result = result
            self.agreesWithAnswer = agreesWithAnswer
            self.tokens = tokens
        }
    }

    /// The statements of the vote, in the order written, the first one included; empty when no
    /// other candidate was written.
    public var candidates: [Candidate] = []

    /// True when what ran is not what the model wrote.
    public var isRewritten: Bool { !rewrites.isEmpty }

    /// Creates a response (``modelSQL`` is `sql` until set; ``confidence`` is low, with no
    /// reason, until set).
    public init(
        summary: String, sql: String, queryResult: QueryResult? = nil, mutationResult: MutationResult? = nil,
        chart: ChartSpecification? = nil, attempts: Int = 1,
        confidence: AnswerConfidence = AnswerConfidence(level: .low, score: 0, reasons: [], evidence: ConfidenceEvidence())
    ) {
        self.confidence = confidence
        self.summary = summary
        self.sql = sql
        self.modelSQL = sql
        self.queryResult = queryResult
        self.mutationResult = mutationResult
        self.chart = chart
        self.attempts = attempts
    }
}

/// A chart suggested for a result: which kind, and which columns go on which axis.
public struct ChartSpecification: Sendable, Hashable, Codable {
    /// The kind of chart.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Categories and a value each.
        case bar
        /// Values over time.
        case line
        /// Shares of a whole (a few categories).
        case pie
    }

    /// The kind of chart.
    public var kind: Kind
    /// The column of categories or times.
    public var x: String
    /// The column of values.
    public var y: String

    /// Creates a chart specification.
    public init(kind: Kind, x: String, y: String) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
