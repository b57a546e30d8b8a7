/// How sure an answer is: ``Level/high`` when the evidence says it is likely right, ``Level/low``
/// when it should be checked before it is trusted, with the reasons either way.
///
/// The level comes from ``score``, an estimate of the chance the answer is right made from the
/// ``evidence`` — the agreement of several candidate statements, how sure the model was of each
/// token, repairs and second looks, empty results, doubts, columns read that the question does
/// not point to, how many tables it reads — with weights fitted on development question sets (`Scripts/calibrate_confidence.py`).
/// On held-out sets measured with a small local model, answers marked high were right far more
/// often than the others (the README gives the figures); a larger model is right more often at
/// either level.
public struct AnswerConfidence: Sendable, Hashable {
    /// Whether to trust the answer or check it.
    public enum Level: String, Sendable, Hashable, Codable, CaseIterable {
        /// The evidence says the answer is likely right.
        case high
        /// The answer may be wrong: check it (its reasons say why).
        case low
    }

    /// One reason for the level.
    public struct Reason: Sendable, Hashable {
        /// What the reason is about, stable for programs.
        public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
            /// Other statements the model wrote return the same rows.
            case candidatesAgree = "candidates_agree"
            /// Other statements the model wrote return other rows.
            case candidatesDisagree = "candidates_disagree"
            /// The model was sure of every token of its statement.
            case modelSure = "model_sure"
            /// The model hesitated on part of its statement.
            case modelUnsure = "model_unsure"
            /// Statements failed in SQLite before one ran.
            case failedFirst = "failed_first"
            /// A repair of the rewrite pipeline made the statement that ran.
            case repaired
            /// The first read returned no rows or looked wrong, and the model looked again.
            case lookedAgain = "looked_again"
            /// The read returned no rows.
            case emptyResult = "empty_result"
            /// The read returned one row of NULLs.
            case nullResult = "null_result"
            /// Something in the answer looks wrong (its doubts).
            case doubts
            /// The statement reads columns nothing in the question points to.
            case unrelatedColumns = "unrelated_columns"
            /// The statement reads several tables, where a join along the wrong key goes unseen.
            case manyTables = "many_tables"
            /// The statement changes data: the user confirms it before it runs.
            case write
        }

        /// What the reason is about.
        public var code: Code
        /// The reason in a sentence.
        public var message: String
        /// True when it speaks for the answer, false when against it.
        public var supportsAnswer: Bool

        /// Creates a reason.
        public init(code: Code, message: String, supportsAnswer: Bool) {
            self.code = code
            self.message = message
            self.supportsAnswer = supportsAnswer
        }
    }

    /// Whether to trust the answer or check it.
    public var level: Level
    /// The estimated chance that the answer is right, 0 to 1 (``level`` is high at
    /// ``ConfidenceModel`` 's threshold and above).
    public var score: Double
    /// Why, most telling first: the reasons against the answer, then those for it.
    public var reasons: [Reason]
    /// The signals the level was judged from.
    public var evidence: ConfidenceEvidence

    /// Creates a confidence.
    public init(level: Level, score: Double, reasons: [Reason], evidence: ConfidenceEvidence) {
        self.level = level
        self.score = score
        self.reasons = reasons
        self.evidence = evidence
    }
}
