/// What a rewrite of the model's SQL may assume, and so when it may run.
///
/// The kinds decide what a rewrite is allowed to do to an answer: a *repair* only mends a
/// statement SQLite rejected, an *equivalence* only changes what nobody could have meant, and a
/// *guess* never changes a statement at all: it is a doubt told to the model.
public enum SQLRewriteKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// The statement failed to compile or run, and the rule mends it mechanically (a column on the
    /// wrong alias, a function of another SQL dialect). Applied only after SQLite rejects it.
    case repair
    /// The result cannot change, or the old form can never be what anyone meant: `x NOT IN
    /// (SELECT c …)` over a column holding NULLs is never true; an inner join tested with
    /// `IS NULL` never matches. Applied before the statement runs.
    case equivalence
    /// Reads the question's wording or guesses at intent. It never replaces a statement that
    /// runs: when its statement would return other rows, what it sees is told to the model as a
    /// doubt, once, and the model decides what to write.
    case guess

    /// The order the kinds are listed in: repair, equivalence, guess.
    public static func < (lhs: SQLRewriteKind, rhs: SQLRewriteKind) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
