import Foundation

/// The reasons an answer's confidence gives, in words, from its evidence: what speaks against the
/// answer first, then what speaks for it.
struct ConfidenceReasons {
    let evidence: ConfidenceEvidence
    let rewrites: [AppliedRewrite]
    let isWrite: Bool

    /// The lowest probability of a token at which the model counts as sure of its statement.
    static let sureProbability = 0.8

    /// The number of tables read from which a statement's joins are a reason to check it.
    static let manyTables = 3

    var reasons: [AnswerConfidence.Reason] {
        var against: [AnswerConfidence.Reason] = []
        var support: [AnswerConfidence.Reason] = []
        func add(_ code: AnswerConfidence.Reason.Code, _ message: String, supports: Bool) {
            let reason = AnswerConfidence.Reason(code: code, message: message, supportsAnswer: supports)
            if supports { support.append(reason) } else { against.append(reason) }
        }
        if evidence.voted {
            let written = evidence.candidatesWritten
            if evidence.candidatesCast == 0 {
                add(.candidatesDisagree,
                    "None of the \(written) statements the model wrote for the question returned rows (each failed, found nothing or would write).",
                    supports: false)
            } else if evidence.candidatesAgreeing == written {
                add(.candidatesAgree, "All \(written) statements the model wrote for the question return these rows.", supports: true)
            } else {
                add(.candidatesDisagree,
                    "The statements the model wrote for the question disagree: \(evidence.candidatesAgreeing) of \(written) return these rows.",
                    supports: false)
            }
        }
        if let tokens = evidence.tokens {
            let lowest = tokens.lowestProbability
            if lowest < Self.sureProbability {
                let places = tokens.hesitations == 1 ? "one place" : "\(tokens.hesitations) places"
                add(.modelUnsure,
                    tokens.hesitations > 0
                        ? "The model hesitated between readings at \(places) of its statement (its least sure choice: \(Self.percent(lowest)))."
                        : "The model was not quite sure of its statement (its least sure choice: \(Self.percent(lowest))).",
                    supports: false)
            } else {
                add(.modelSure, "The model was sure of every part of its statement (its least sure choice: \(Self.percent(lowest))).", supports: true)
            }
        }
        if evidence.failedStatements > 0 {
            let count = evidence.failedStatements == 1 ? "a statement" : "\(evidence.failedStatements) statements"
            add(.failedFirst, "SQLite rejected \(count) the model wrote before this one.", supports: false)
        }
        let repairs = rewrites.filter { $0.kind == .repair }.map(\.rule)
        if evidence.repaired {
            add(.repaired, "The statement that ran was repaired after SQLite rejected the model's (\(repairs.joined(separator: ", "))).", supports: false)
        }
        if evidence.lookedAgain {
            add(.lookedAgain,
                evidence.replaced
                    ? "The model's first statement returned no rows or looked wrong; its second one replaced it."
                    : "The model's first statement returned no rows or looked wrong; it kept it after a second look.",
                supports: false)
        }
        if evidence.emptyResult {
            add(.emptyResult, "The statement returned no rows: a value it looks for may be spelled otherwise in the data.", supports: false)
        } else if evidence.nullResult {
            add(.nullResult, "The statement returned only NULL: nothing matched what it aggregates.", supports: false)
        }
        if evidence.doubts > 0 {
            add(.doubts, evidence.doubts == 1 ? "One thing in the answer looks wrong (its doubt)." : "\(evidence.doubts) things in the answer look wrong (its doubts).", supports: false)
        }
        if !evidence.unrelatedColumns.isEmpty {
            add(.unrelatedColumns,
                "It reads columns that nothing in the question points to: \(evidence.unrelatedColumns.prefix(5).joined(separator: ", ")).",
                supports: false)
        }
        if evidence.tablesRead >= Self.manyTables {
            add(.manyTables,
                "It reads \(evidence.tablesRead) tables: a join along the wrong key or through the wrong table still returns rows.",
                supports: false)
        }
        if isWrite {
            add(.write, "It changes data: the change runs only as the user confirmed it.", supports: true)
        }
        return against + support
    }

    private static func percent(_ probability: Double) -> String {
        "\(Int((probability * 100).rounded()))%"
    }
}
