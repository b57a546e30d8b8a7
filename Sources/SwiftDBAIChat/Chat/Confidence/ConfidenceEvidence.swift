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
    /// How many tables a read reads, as SQLite compiles it (a view counts as the tables it reads,
    /// a table read twice once; 0 for a write, or a read of no table): the more tables it
    /// combines, the more it can get wrong.
    public var tablesRead: Int

    /// Evidence of an answer.
    public init(
        tokens: TokenCertainty? = nil, candidatesWritten: Int = 1, candidatesCast: Int = 1, candidatesAgreeing: Int = 1,
        failedStatements: Int = 0,
        repaired: Bool = false, askedAfresh: Bool = false, lookedAgain: Bool = false, replaced: Bool = false,
        emptyResult: Bool = false, nullResult: Bool = false, doubts: Int = 0, unrelatedColumns: [String] = [],
        tablesRead: Int = 1
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
        self.tablesRead = tablesRead
    }

    /// True when other candidates were written to vote on the answer.
    public var voted: Bool { candidatesWritten > 1 }
}
