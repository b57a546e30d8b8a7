import Foundation
import SwiftDBAI

extension ChatEngine {
    /// The model that weighs the evidence.
    var confidenceModel: ConfidenceModel { configuration.confidenceModel }

    /// What a statement reads, as SQLite's compiler reports it; nil when it does not classify (it
    /// ran, so it does).
    func reads(of sql: String) async -> ClassifiedStatement? {
        try? await executor.classify(sql)
    }

    /// What is known about an answer: how it was written (``AnswerProgress``), what it returned,
    /// how sure the model was of its tokens, the vote, and the tables and columns it reads.
    func evidence(
        for settled: SettledStatement, _ progress: AnswerProgress, vote: CandidateVote?, reads: ClassifiedStatement?,
        relevance: ColumnRelevance
    ) -> ConfidenceEvidence {
        let rows = settled.rows
        let emptyResult = rows.map { $0.rowCount == 0 } ?? false
        let nullResult = rows.map { $0.rowCount == 1 && ($0.rows.first ?? []).allSatisfy { $0 == .null } } ?? false
        let replaced = progress.secondLookReplaced(with: settled.sql)
        return ConfidenceEvidence(
            tokens: settled.tokenCertainty,
            candidatesWritten: vote?.runs.count ?? 1,
            candidatesCast: vote?.cast ?? (settled.isRead && !emptyResult ? 1 : 0),
            candidatesAgreeing: vote?.agreeing ?? (settled.isRead && !emptyResult ? 1 : 0),
            failedStatements: progress.failedStatements,
            repaired: settled.rewrites.contains { $0.kind == .repair },
            askedAfresh: progress.isFocused,
            lookedAgain: !progress.lookedAgainFor.isEmpty,
            replaced: replaced,
            emptyResult: emptyResult,
            nullResult: nullResult,
            doubts: settled.doubts.count,
            unrelatedColumns: relevance.unrelatedColumns(in: reads?.columnsRead ?? [:]),
            tablesRead: settled.isRead ? reads?.columnsRead.count ?? 0 : 0)
    }

    /// The confidence of an answer with this evidence: its score, level and reasons.
    static func confidence(
        _ evidence: ConfidenceEvidence, rewrites: [AppliedRewrite], isWrite: Bool, model: ConfidenceModel
    ) -> AnswerConfidence {
        let score = model.score(evidence)
        return AnswerConfidence(
            level: model.level(of: score), score: score,
            reasons: ConfidenceReasons(evidence: evidence, rewrites: rewrites, isWrite: isWrite).reasons, evidence: evidence)
    }
}
