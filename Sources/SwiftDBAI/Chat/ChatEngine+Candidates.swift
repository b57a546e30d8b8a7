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
    /// prompt cache already holds) at ``ChatConfiguration/candidateTemperature``, corrected and,
    /// when SQLite rejects them, repaired like the first statement; they may only read. One that
    /// fails, writes or finds nothing casts no vote. When the model fails (a timeout, an error) or
    /// the question is cancelled, the vote ends with the ballots cast. Writes are never voted on.
    func voted(
        _ settled: Settled, asked: [ChatMessage], question: String, schema: DatabaseSchema, profiles: [ColumnProfile]
    ) async -> Settled {
        guard configuration.candidates > 1, case .rows(let result) = settled.outcome else { return settled }
        var ballots = [Ballot(signature: ResultSignature(result), votes: 1, settled: settled)]
        var remaining = configuration.candidates - 1
        while remaining > 0, !Self.isDecided(ballots, remaining: remaining) {
            remaining -= 1
            let number = configuration.candidates - remaining
            let written: Settled?
            do {
                written = try await candidate(number, asked: asked, question: question, schema: schema, profiles: profiles)
            } catch {
                break  // The model failed or the question was cancelled: the answer stands as it is.
            }
            guard var candidate = written, case .rows(let rows) = candidate.outcome, rows.rowCount > 0 else { continue }
            candidate.attempts = settled.attempts
            let signature = ResultSignature(rows)
            if let index = ballots.firstIndex(where: { $0.signature == signature }) {
                ballots[index].votes += 1
            } else {
                ballots.append(Ballot(signature: signature, votes: 1, settled: candidate))
            }
        }
        return Self.winner(of: ballots).settled
    }

    /// The result with rows and the most votes; among equals, the earliest (the statement
    /// settled on comes first).
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

    /// True when the candidates still to come cannot change the winner.
    private static func isDecided(_ ballots: [Ballot], remaining: Int) -> Bool {
        let leader = winner(of: ballots)
        if leader.signature.isEmpty { return false }
        let others = ballots.filter { $0.signature != leader.signature }.map(\.votes).max() ?? 0
        // A newcomer ranks after the leader on a tie; a runner-up listed before it would not.
        return leader.votes > others + remaining
            || (leader.votes == others + remaining && ballots.first?.signature == leader.signature)
    }

    /// One more statement for the question and what it read, or nil when the model writes no SQL
    /// or the statement fails after repairs or would write.
    ///
    /// - Throws: ``ChatError/model(_:)`` when the model fails (a timeout, an error, a cancellation).
    private func candidate(
        _ number: Int, asked: [ChatMessage], question: String, schema: DatabaseSchema, profiles: [ColumnProfile]
    ) async throws(ChatError) -> Settled? {
        if Task.isCancelled { throw .model(.cancelled) }
        var request = sqlRequest(asked)
        request.options.temperature = configuration.candidateTemperature
        stepObserver?(.writingCandidate(number: number, of: configuration.candidates))
        let response = try await respond(to: request)
        guard let written = SQLExtractor.sql(in: response) else { return nil }
        let sql = Self.corrected(written, question: question, schema: schema, profiles: profiles)
        do {
            let outcome = try await run(sql, readsOnly: true)
            return Settled(sql: sql, outcome: outcome, conversation: asked + answerMessages(response, sql: sql), attempts: 1)
        } catch where Self.isRetryable(error) {
            guard let (repaired, outcome) = await repairedOutcome(
                of: sql, error: error, question: question, schema: schema, profiles: profiles) else { return nil }
            return Settled(sql: repaired, outcome: outcome, conversation: asked + [.assistant(repaired)], attempts: 1)
        } catch {
            return nil
        }
    }
}
