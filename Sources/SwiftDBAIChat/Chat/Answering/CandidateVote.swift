/// The record of a vote between the statements the model wrote for one read.
struct CandidateVote: Sendable, Hashable {
    /// One statement of the vote.
    struct Run: Sendable, Hashable {
        /// The statement that ran (nil: the model wrote no SQL).
        var sql: String?
        /// The result it returned, numbered in the order results first appeared (the first
        /// statement's is 0); nil when it cast no vote (it failed, found nothing or would write).
        var group: Int?
        /// How sure the model was of its tokens, when the provider says.
        var tokens: TokenCertainty?
    }

    /// Every statement, in the order written: the first one, then the candidates.
    var runs: [Run]
    /// The result chosen.
    var chosenGroup = 0

    /// A vote that starts with the statement settled on.
    init(first settled: SettledStatement) {
        runs = [Run(sql: settled.sql, group: settled.isRead && !settled.isEmptyRead ? 0 : nil, tokens: settled.tokenCertainty)]
    }

    /// Statements that returned rows.
    var cast: Int { runs.filter { $0.group != nil }.count }

    /// Statements that returned the chosen rows.
    var agreeing: Int { runs.filter { $0.group == chosenGroup }.count }
}
