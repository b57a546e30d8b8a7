extension ConfidenceModel {
    /// The weights fitted with the local Qwen2.5-Coder-1.5B on the development sets
    /// (chinook-dev, clinic-heldout, library-heldout, northwind-check, northwind-heldout,
    /// tickets-heldout), written by `Scripts/calibrate_confidence.py`.
    package static let standard = ConfidenceModel(
        unvoted: Weights(intercept: 2.4283, features: [
            .minLogprob: 0.2708, .hesitations: -0.5986, .askedAfresh: -0.8690, .lookedAgain: -0.2837,
            .replaced: -0.2837, .emptyResult: 0.0000, .nullResult: 0.0000, .doubts: -1.1517,
            .unrelatedColumns: -0.6751, .joinedTables: -0.2906,
        ]),
        voted: Weights(intercept: 2.6827, features: [
            .hesitations: -0.3297, .askedAfresh: -0.5955, .lookedAgain: -0.0096, .replaced: -0.0096,
            .emptyResult: 0.0000, .nullResult: 0.0000, .doubts: -1.0882, .unrelatedColumns: -0.7962,
            .joinedTables: -0.1174, .disagreement: -1.8959,
        ]),
        unvotedWithoutTokens: Weights(intercept: 1.7719, features: [
            .failedStatements: -0.2517, .repaired: -0.1286, .askedAfresh: -0.9611, .lookedAgain: -0.2904,
            .replaced: -0.2904, .emptyResult: 0.0000, .nullResult: 0.0000, .doubts: -1.3512,
            .unrelatedColumns: -0.8270, .joinedTables: -0.4507,
        ]),
        votedWithoutTokens: Weights(intercept: 2.4322, features: [
            .failedStatements: -0.0908, .askedAfresh: -0.6360, .emptyResult: 0.0000, .nullResult: 0.0000,
            .doubts: -1.2119, .unrelatedColumns: -0.8749, .joinedTables: -0.1765, .disagreement: -2.0535,
        ]),
        highThreshold: 0.75, voteBand: 0.70..<0.85, voteBandWithoutTokens: 0.65..<0.90)
}
