import SwiftDBAI

extension ChatEngine {
    /// A result and the statements that returned it.
    private struct Ballot {
        var signature: ResultSignature
        var votes: Int
        /// The first statement that returned it.
        var settled: Settled
    }

    /// The read settled on, or another candidate's when more candidates return another result
    /// (``ChatConfiguration/candidates``): a small model's one greedy statement is often one of
    /// several plausible readings, and the reading most samples agree on is more often right.
    ///
    /// The candidates are written from `asked` (the conversation up to the question, which a
    /// prompt cache already holds) at ``ChatConfiguration/candidateTemperature``, given the
    /// equivalences and, when SQLite rejects them, the repairs like the first statement; they may
    /// only read. One that fails, writes or finds nothing casts no vote. When the model fails (a
    /// timeout, an error) or the question is cancelled, the vote ends with the ballots cast. Writes
    /// are never voted on. When the statements disagree, the answer says so in its doubts.
    func voted(_ settled: Settled, asked: [ChatMessage], context: RewriteContext) async -> Settled {
        guard configuration.candidates > 1, case .rows(let result) = settled.outcome else { return settled }
        var ballots = [Ballot(signature: ResultSignature(result), votes: 1, settled: settled)]
        var remaining = configuration.candidates - 1
        while remaining > 0, !Self.isDecided(ballots, remaining: remaining) {
            remaining -= 1
            let number = configuration.candidates - remaining
            let written: Settled?
            do {
                written = try await candidate(number, asked: asked, context: context)
            } catch {
                break  // The model failed or the question was cancelled: the answer stands as it is.
            }
            guard var candidate = written, case .rows(let rows) = candidate.outcome, rows.rowCount > 0 else { continue }
            candidate.attempts = settled.attempts
            Self.cast(candidate, signature: ResultSignature(rows), into: &ballots)
        }
        var winner = Self.winner(of: ballots).settled
        let cast = ballots.map(\.votes).reduce(0, +)
        if ballots.count > 1 {
            winner.doubts.append("The model's statements disagree: \(Self.winner(of: ballots).votes) of the \(cast) that ran return this result.")
        }
        return winner
    }

    /// Counts a candidate's vote: for the ballot of its result, or a new ballot.
    private static func cast(_ candidate: Settled, signature: ResultSignature, into ballots: inout [Ballot]) {
        if let index = ballots.firstIndex(where: { $0.signature == signature }) {
            ballots[index].votes += 1
        } else {
            ballots.append(Ballot(signature: signature, votes: 1, settled: candidate))
        }
    }

    /// The result with rows and the most votes; among equals, the earliest (the statement settled
    /// on comes first).
    private static func winner(of ballots: [Ballot]) -> Ballot {
        var best = ballots[0]
        for ballot in ballots.dropFirst() where Self.rank(ballot) > Self.rank(best) {
            best = ballot
        }
        return best
    }

    private static func rank(_ ballot: Ballot) -> (Int, Int) {
        (ballot.signature.isEmpty ? 0 : 1, ballot.votes)
    }

    /// True when `remaining` more candidates cannot change the winner.
    private static func isDecided(_ ballots: [Ballot], remaining: Int) -> Bool {
        let leader = winner(of: ballots)
        if leader.signature.isEmpty { return false }
        guard let leaderIndex = ballots.firstIndex(where: { $0.signature == leader.signature }) else { return false }
        for (index, ballot) in ballots.enumerated() where index != leaderIndex && !ballot.signature.isEmpty {
            let potential = ballot.votes + remaining
            // Ties go to the earlier ballot.
            if potential > leader.votes || (potential == leader.votes && index < leaderIndex) { return false }
        }
        // A result no candidate has returned yet comes after the leader.
        return remaining <= leader.votes
    }

    /// One more statement for the question and what it read, or nil when the model writes no SQL
    /// or the statement fails after repairs or would write.
    ///
    /// - Throws: ``ChatError/model(_:)`` when the model fails (a timeout, an error, a cancellation).
    private func candidate(_ number: Int, asked: [ChatMessage], context: RewriteContext) async throws(ChatError) -> Settled? {
        if Task.isCancelled { throw .model(.cancelled) }
        var request = sqlRequest(asked)
        request.options.temperature = configuration.candidateTemperature
        stepObserver?(.writingCandidate(number: number, of: configuration.candidates))
        let response = try await respond(to: request)
        guard let written = SQLExtractor.sql(in: response) else { return nil }
        var statement = pipeline.equivalences(of: written, in: context)
        do {
            let outcome = try await runWithEquivalences(&statement, written: written, readsOnly: true)
            return Settled(
                sql: statement.sql, modelSQL: written, rewrites: statement.applied, outcome: outcome,
                conversation: asked + answerMessages(response, sql: statement.sql), attempts: 1)
        } catch where Self.isRetryable(error) {
            guard let (repaired, outcome) = await repairedOutcome(of: statement, error: error, context: context) else { return nil }
            return Settled(
                sql: repaired.sql, modelSQL: written, rewrites: repaired.applied, outcome: outcome,
                conversation: asked + [.assistant(repaired.sql)], attempts: 1)
        } catch {
            return nil
        }
    }
}
