import SwiftDBAI

extension ChatEngine {
    /// A result and the statements that returned it.
    private struct Ballot {
        var signature: ResultSignature
        var votes: Int
        /// The first statement that returned it.
        var settled: SettledStatement
    }

    /// The read settled on, or another candidate's when more candidates return another result
    /// (``ChatConfiguration/candidates``), with the record of the vote: a small model's one
    /// greedy statement is often one of several plausible readings, the reading most samples
    /// agree on is more often right, and whether they agree at all says how sure to be of it.
    ///
    /// The candidates are written from `asked` (the conversation up to the question, which a
    /// prompt cache already holds) at ``ChatConfiguration/candidateTemperature``, given the
    /// equivalences and, when SQLite rejects them, the repairs like the first statement; they may
    /// only read. One that fails, writes or finds nothing casts no vote. When the model fails (a
    /// timeout, an error) or the question is cancelled, the vote ends with the ballots cast.
    /// Sampling stops as soon as no other result can win and the level of confidence cannot
    /// change (a split vote stops once its winner is certain; a unanimous one goes on).
    ///
    /// With `mayReplace` false (a second look replaced the first statement, or the question was
    /// asked afresh: the candidates' prompt holds neither) the settled statement stays the
    /// answer, and the vote only says how many candidates agree with it.
    func voted(
        _ settled: SettledStatement, asked: [ChatMessage], context: RewriteContext, mayReplace: Bool = true
    ) async -> (SettledStatement, CandidateVote) {
        guard case .rows(let result) = settled.outcome else { return (settled, CandidateVote(first: settled)) }
        var ballots = [Ballot(signature: ResultSignature(result), votes: 1, settled: settled)]
        var vote = CandidateVote(first: settled)
        var remaining = configuration.candidates - 1
        while remaining > 0, !(mayReplace && Self.isDecided(ballots, remaining: remaining)) {
            remaining -= 1
            let number = configuration.candidates - remaining
            let written: SettledStatement?
            do {
                written = try await candidate(number, asked: asked, context: context)
            } catch {
                break  // The model failed or the question was cancelled: the answer stands as it is.
            }
            guard var candidate = written, case .rows(let rows) = candidate.outcome, rows.rowCount > 0 else {
                vote.runs.append(.init(sql: written?.sql, group: nil, tokens: written?.tokenCertainty))
                continue
            }
            candidate.attempts = settled.attempts
            let group = Self.cast(candidate, signature: ResultSignature(rows), into: &ballots)
            vote.runs.append(.init(sql: candidate.sql, group: group, tokens: candidate.tokenCertainty))
        }
        let winnerIndex = mayReplace ? Self.winnerIndex(of: ballots) : 0
        vote.chosenGroup = winnerIndex
        return (ballots[winnerIndex].settled, vote)
    }

    /// Counts a candidate's vote, for the ballot of its result or a new ballot, and returns the
    /// ballot's index.
    private static func cast(_ candidate: SettledStatement, signature: ResultSignature, into ballots: inout [Ballot]) -> Int {
        if let index = ballots.firstIndex(where: { $0.signature == signature }) {
            ballots[index].votes += 1
            return index
        }
        ballots.append(Ballot(signature: signature, votes: 1, settled: candidate))
        return ballots.count - 1
    }

    /// The result with rows and the most votes; among equals, the earliest (the statement settled
    /// on comes first).
    private static func winnerIndex(of ballots: [Ballot]) -> Int {
        var best = 0
        for index in ballots.indices.dropFirst() where Self.rank(ballots[index]) > Self.rank(ballots[best]) {
            best = index
        }
        return best
    }

    private static func rank(_ ballot: Ballot) -> (Int, Int) {
        (ballot.signature.isEmpty ? 0 : 1, ballot.votes)
    }

    /// True when `remaining` more candidates can change neither the winner nor whether the
    /// statements all agree: a vote that is already split stops once the winner is certain; a
    /// unanimous one goes on, since one more dissent would make the answer less sure.
    private static func isDecided(_ ballots: [Ballot], remaining: Int) -> Bool {
        guard ballots.count > 1 else { return false }
        let leaderIndex = winnerIndex(of: ballots)
        let leader = ballots[leaderIndex]
        if leader.signature.isEmpty { return false }
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
    private func candidate(_ number: Int, asked: [ChatMessage], context: RewriteContext) async throws(ChatError) -> SettledStatement? {
        if Task.isCancelled { throw .model(.cancelled) }
        var request = sqlRequest(asked)
        request.options.temperature = configuration.candidateTemperature
        stepObserver?(.writingCandidate(number: number, of: configuration.candidates))
        let response = try await respond(to: request)
        guard let written = SQLExtractor.sql(in: response) else { return nil }
        var statement = pipeline.equivalences(of: written, in: context)
        do {
            let outcome = try await runWithEquivalences(&statement, written: written, readsOnly: true)
            return SettledStatement(
                sql: statement.sql, modelSQL: written, rewrites: statement.applied, outcome: outcome,
                conversation: asked + answerMessages(response, sql: statement.sql), attempts: 1,
                tokenLogprobs: response.tokenLogprobs)
        } catch where Self.isRetryable(error) {
            guard let (repaired, outcome) = await repairedOutcome(of: statement, error: error, context: context) else { return nil }
            return SettledStatement(
                sql: repaired.sql, modelSQL: written, rewrites: repaired.applied, outcome: outcome,
                conversation: asked + [.assistant(repaired.sql)], attempts: 1, tokenLogprobs: response.tokenLogprobs)
        } catch {
            return nil
        }
    }
}
