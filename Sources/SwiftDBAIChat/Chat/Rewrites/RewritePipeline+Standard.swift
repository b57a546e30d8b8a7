extension RewritePipeline {
    /// Every rule, in the order it applies within its kind. The order is part of the contract
    /// (a test holds it): repairs are tried in this order and the first that mends the error
    /// wins; equivalences apply one after the other; each guess is tried alone, and their doubts
    /// are told to the model in this order.
    static let standard = RewritePipeline(rules: [
        // Repairs of a statement SQLite rejected.
        ColumnQualifierRepair(),
        UnquotedNameRepair(),
        FoldedNameRepair(),
        JoinBridgeRepair(),
        ForeignFunctionRepair(),
        NearNameRepair(),
        // Equivalences, before a statement runs.
        NotInNullCorrection(),
        AntiJoinCorrection(),
        HavingAliasCorrection(),
        // Guesses: doubts told to the model, never replacements of a statement that runs.
        CentsGuess(),
        EmptyGroupGuess(),
        RoundingGuess(),
    ])
}
