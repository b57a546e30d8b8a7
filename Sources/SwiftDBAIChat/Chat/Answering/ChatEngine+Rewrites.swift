import SwiftDBAI

extension ChatEngine {
    /// The most repairs applied in a row to one statement: a statement often has two mistakes
    /// (a name left unquoted and a join that skips a table).
    static let maxRepairs = 3

    /// A failed statement repaired without a model call, and what it read: the pipeline's repairs
    /// are applied one after the other while each mends the error at hand and the next error is
    /// one a repair knows. Nil when no repair applies or the repaired statement still fails.
    /// Repaired statements may only read.
    ///
    /// - Parameter statement: The statement that failed and the rewrites that made it.
    func repairedOutcome(
        of statement: RewritePipeline.Rewritten, error: SwiftDBAIError, context: RewriteContext
    ) async -> (RewritePipeline.Rewritten, Outcome)? {
        var (current, currentError) = (statement, error)
        for _ in 0..<Self.maxRepairs {
            var repairContext = context
            repairContext.failure = SQLiteFailure(currentError)
            guard let step = pipeline.repaired(current.sql, in: repairContext) else { return nil }
            let repaired = RewritePipeline.Rewritten(sql: step.sql, applied: current.applied + step.applied)
            do {
                return (repaired, try await run(repaired.sql, readsOnly: true))
            } catch where Self.isRetryable(error) {
                (current, currentError) = (repaired, error)
            } catch {
                return nil
            }
        }
        return nil
    }

    /// Runs the model's statement with its equivalences. An equivalence must never break a
    /// statement: when the rewritten one fails (an error, a limit, a refusal), the model's
    /// statement runs as written, and
    /// `statement` becomes it (its failure, if it fails too, is the model's own).
    func runWithEquivalences(
        _ statement: inout RewritePipeline.Rewritten, written: String, readsOnly: Bool
    ) async throws(SwiftDBAIError) -> Outcome {
        do {
            return try await run(statement.sql, readsOnly: readsOnly)
        } catch where !statement.applied.isEmpty && !Task.isCancelled {
            statement = RewritePipeline.Rewritten(sql: written, applied: [])
            return try await run(written, readsOnly: readsOnly)
        }
    }

    /// What the pipeline's guesses see in a read that ran, one line each: only the guesses whose
    /// statement returns rows other than the read's (a guess that changes nothing tells nothing).
    /// Told to the model on its second look, never applied: the model decides what to write.
    func guessedDoubts(about settled: SettledStatement, context: RewriteContext) async -> [String] {
        guard case .rows(let result) = settled.outcome else { return [] }
        let signature = ResultSignature(result)
        var doubts: [String] = []
        for guess in pipeline.guesses(of: settled.sql, in: context) {
            guard !Task.isCancelled, case .rows(let rows)? = try? await run(guess.rewritten.sql, readsOnly: true),
                  rows.rowCount > 0, ResultSignature(rows) != signature, !doubts.contains(guess.doubt)
            else { continue }
            doubts.append(guess.doubt)
        }
        return doubts
    }

    /// What looks wrong in a read that ran, one fact per line: values compared with a column
    /// that does not hold them (`LiteralCheck`), keys of different tables compared
    /// (`KeyComparisonCheck`).
    static func doubts(about sql: String, context: RewriteContext) -> [String] {
        let statement = ParsedStatement(sql, schema: context.schema)
        var doubts: [String] = []
        let keys = KeyComparisonCheck.findings(in: statement, schema: context.schema)
        if !keys.isEmpty { doubts.append(KeyComparisonCheck.message(for: keys, schema: context.schema)) }
        let unstored = LiteralCheck.findings(in: statement, schema: context.schema, profiles: context.profiles)
        if !unstored.isEmpty { doubts.append(LiteralCheck.message(for: unstored)) }
        return doubts
    }
}
