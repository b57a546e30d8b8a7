extension ConfidenceModel {
    /// The weights fitted with the local Qwen2.5-Coder-1.5B on the development sets
    /// (chinook-dev, clinic-heldout, northwind-check, northwind-heldout), written by `Scripts/calibrate_confidence.py`.
    package static let standard = ConfidenceModel(
        unvoted: Weights(intercept: 2.0315, features: [
            .minLogprob: 0.1992, .hesitations: -0.4261, .askedAfresh: -0.8668, .lookedAgain: -0.3662,
            .replaced: -0.3662, .emptyResult: 0.0000, .nullResult: 0.0000, .doubts: -0.5867,
            .unrelatedColumns: -0.6200,
        ]),
        voted: Weights(intercept: 2.2644, features: [
            .hesitations: -0.1795, .askedAfresh: -0.5874, .lookedAgain: -0.1985, .replaced: -0.1985,
            .emptyResult: 0.0000, .nullResult: 0.0000, .doubts: -0.5983, .unrelatedColumns: -0.6330,
            .disagreement: -1.8172,
        ]),
        unvotedWithoutTokens: Weights(intercept: 1.5008, features: [
            .failedStatements: -0.0290, .askedAfresh: -1.0591, .lookedAgain: -0.3346, .replaced: -0.3346,
            .emptyResult: 0.0000, .nullResult: 0.0000, .doubts: -0.6868, .unrelatedColumns: -0.7596,
        ]),
        votedWithoutTokens: Weights(intercept: 2.1122, features: [
            .askedAfresh: -0.6466, .lookedAgain: -0.1822, .replaced: -0.1822, .emptyResult: 0.0000,
            .nullResult: 0.0000, .doubts: -0.6296, .unrelatedColumns: -0.6729, .disagreement: -1.9039,
        ]),
        highThreshold: 0.77, voteBand: 0.70..<0.80, voteBandWithoutTokens: 0.05..<0.85)
}
