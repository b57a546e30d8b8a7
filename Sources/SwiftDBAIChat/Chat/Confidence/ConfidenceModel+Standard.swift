extension ConfidenceModel {
    /// The weights fitted on the development sets. Written by `Scripts/calibrate_confidence.py`.
    package static let standard = ConfidenceModel(
        unvoted: Weights(intercept: 2.0, features: [
            .minLogprob: 0.4, .hesitations: -0.3, .failedStatements: -0.6, .repaired: -0.5, .askedAfresh: -0.5,
            .lookedAgain: -0.6, .replaced: -0.3, .emptyResult: -1.5, .nullResult: -1.5, .doubts: -0.6, .unrelatedColumns: -0.5,
        ]),
        voted: Weights(intercept: 2.0, features: [
            .minLogprob: 0.3, .hesitations: -0.2, .failedStatements: -0.6, .repaired: -0.5, .askedAfresh: -0.5,
            .lookedAgain: -0.6, .replaced: -0.3, .emptyResult: -1.5, .nullResult: -1.5, .doubts: -0.6, .unrelatedColumns: -0.5,
            .disagreement: -3.0,
        ]),
        unvotedWithoutTokens: Weights(intercept: 2.0, features: [
            .failedStatements: -0.6, .repaired: -0.5, .askedAfresh: -0.5,
            .lookedAgain: -0.6, .replaced: -0.3, .emptyResult: -1.5, .nullResult: -1.5, .doubts: -0.6, .unrelatedColumns: -0.5,
        ]),
        votedWithoutTokens: Weights(intercept: 2.0, features: [
            .failedStatements: -0.6, .repaired: -0.5, .askedAfresh: -0.5,
            .lookedAgain: -0.6, .replaced: -0.3, .emptyResult: -1.5, .nullResult: -1.5, .doubts: -0.6, .unrelatedColumns: -0.5,
            .disagreement: -3.0,
        ]),
        highThreshold: 0.8, voteBand: 0.5..<0.95)
}
