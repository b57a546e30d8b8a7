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
            repairContext.error = currentError.description
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
