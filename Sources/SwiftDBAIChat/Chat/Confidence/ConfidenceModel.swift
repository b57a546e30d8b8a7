import Foundation

/// Turns the evidence about an answer into the estimated chance that it is right: a logistic
/// model over a few features of ``ConfidenceEvidence``, with weights fitted on development
/// question sets only (`Scripts/calibrate_confidence.py` reads `Scripts/eval` outputs and prints
/// this table): one set of weights for each combination of a vote (other candidates written or
/// not) and token log-probabilities (given by the provider or not). Without them, the weights are
/// those fitted on the same answers with the token features left out, so a provider that gives
/// none (Anthropic, Gemini, the client's model through sampling) is judged on the other evidence.
///
/// An answer is ``AnswerConfidence/Level/high`` at ``highThreshold`` and above. With
/// ``CandidateSampling/whenUnsure``, candidates are written only when the score without them lies
/// in ``voteBand`` (``voteBandWithoutTokens`` without log-probabilities): the scores where, on the
/// development sets, a vote changed enough levels to be worth its cost. Outside it a vote could
/// still change the level now and then; the band trades that for time.
package struct ConfidenceModel: Sendable, Hashable {
    /// One input of the model, computed from the evidence.
    package enum Feature: String, Sendable, CaseIterable {
        /// The lowest token log-probability, floored at -8.
        case minLogprob = "min_logprob"
        /// Tokens chosen under one half, at most 5.
        case hesitations
        /// Statements that failed first, at most 2.
        case failedStatements = "failed_statements"
        /// 1 when a repair made the statement.
        case repaired
        /// 1 when the question was asked afresh on its tables.
        case askedAfresh = "asked_afresh"
        /// 1 when the model looked again.
        case lookedAgain = "looked_again"
        /// 1 when its second look replaced the first read.
        case replaced
        /// 1 for no rows.
        case emptyResult = "empty_result"
        /// 1 for one row of NULLs.
        case nullResult = "null_result"
        /// Doubts, at most 2.
        case doubts
        /// Unrelated columns read, at most 3.
        case unrelatedColumns = "unrelated_columns"
        /// Tables read beyond the first, at most 3.
        case joinedTables = "joined_tables"
        /// The share of the other candidates that did not return the answer's rows (they failed,
        /// found nothing or returned other rows; votes only).
        case disagreement

        /// The feature's value for an answer.
        func value(_ evidence: ConfidenceEvidence) -> Double {
            switch self {
            case .minLogprob: evidence.tokens.map { max(-8, $0.minLogprob) } ?? 0
            case .hesitations: evidence.tokens.map { Double(min(5, $0.hesitations)) } ?? 0
            case .failedStatements: Double(min(2, evidence.failedStatements))
            case .repaired: evidence.repaired ? 1 : 0
            case .askedAfresh: evidence.askedAfresh ? 1 : 0
            case .lookedAgain: evidence.lookedAgain ? 1 : 0
            case .replaced: evidence.replaced ? 1 : 0
            case .emptyResult: evidence.emptyResult ? 1 : 0
            case .nullResult: evidence.nullResult ? 1 : 0
            case .doubts: Double(min(2, evidence.doubts))
            case .unrelatedColumns: Double(min(3, evidence.unrelatedColumns.count))
            case .joinedTables: Double(min(3, max(0, evidence.tablesRead - 1)))
            case .disagreement:
                evidence.candidatesWritten > 1
                    ? Double(evidence.candidatesWritten - max(1, evidence.candidatesAgreeing)) / Double(evidence.candidatesWritten - 1) : 0
            }
        }
    }

    /// The weights of one model: an intercept and a weight per feature (missing: 0).
    package struct Weights: Sendable, Hashable {
        package var intercept: Double
        package var features: [Feature: Double]
    }

    /// Weights for answers without a vote, with token log-probabilities.
    package var unvoted: Weights
    /// Weights for answers other candidates voted on, with token log-probabilities.
    package var voted: Weights
    /// Weights for answers without a vote or token log-probabilities.
    package var unvotedWithoutTokens: Weights
    /// Weights for answers other candidates voted on, without token log-probabilities.
    package var votedWithoutTokens: Weights
    /// The score from which an answer is high.
    package var highThreshold: Double
    /// The scores without a vote, with token log-probabilities, at which candidates are written.
    package var voteBand: Range<Double>
    /// The scores without a vote or token log-probabilities at which candidates are written.
    package var voteBandWithoutTokens: Range<Double>

    /// The estimated chance that an answer with this evidence is right.
    package func score(_ evidence: ConfidenceEvidence) -> Double {
        let weights = switch (evidence.voted, evidence.tokens != nil) {
        case (true, true): voted
        case (false, true): unvoted
        case (true, false): votedWithoutTokens
        case (false, false): unvotedWithoutTokens
        }
        let sum = weights.features.reduce(weights.intercept) { $0 + $1.value * $1.key.value(evidence) }
        return 1 / (1 + exp(-sum))
    }

    /// Whether candidates are worth writing for an answer with this evidence (no vote yet).
    package func isWorthVoting(_ evidence: ConfidenceEvidence) -> Bool {
        (evidence.tokens == nil ? voteBandWithoutTokens : voteBand).contains(score(evidence))
    }

    /// The level of a score.
    package func level(of score: Double) -> AnswerConfidence.Level {
        score >= highThreshold ? .high : .low
    }
}
