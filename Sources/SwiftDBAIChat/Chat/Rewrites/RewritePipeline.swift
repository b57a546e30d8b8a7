import SwiftDBAI

/// The one ordered pipeline of rewrites between the model's SQL and SQLite.
///
/// Rules are registered in ``standard`` in the order they apply. Each kind runs at its own moment:
/// - equivalences, in order, before the statement first runs (``equivalences(of:in:)``);
/// - repairs after SQLite rejects it: the first repair that applies, then the equivalences again
///   on the repaired statement (``repaired(_:in:)``);
/// - guesses after a read ran: each alone, giving one more candidate for the vote, never a
///   replacement of a statement that runs (``guesses(of:in:)``).
///
/// Every rule that changes the statement is recorded as an ``AppliedRewrite``. Only statements
/// that read, as written, are rewritten: a write keeps what the model wrote.
struct RewritePipeline: Sendable {
    /// The rules, in the order they apply.
    let rules: [any SQLRewriteRule]

    init(rules: [any SQLRewriteRule]) {
        self.rules = rules
    }

    /// The rules of the kinds given, in the same order.
    func restricted(to kinds: Set<SQLRewriteKind>) -> RewritePipeline {
        RewritePipeline(rules: rules.filter { kinds.contains($0.kind) })
    }

    /// A statement and the rewrites that made it.
    struct Rewritten: Sendable, Hashable {
        var sql: String
        var applied: [AppliedRewrite]
    }

    /// The statement after every equivalence that applies, in order.
    func equivalences(of sql: String, in context: RewriteContext) -> Rewritten {
        var result = Rewritten(sql: sql, applied: [])
        var statement = ParsedStatement(sql, schema: context.schema)
        guard statement.isQuery else { return result }
        for rule in rules where rule.kind == .equivalence {
            guard let (rewritten, parsed) = apply(rule, to: statement, in: context) else { continue }
            result.applied.append(AppliedRewrite(rule: rule.name, kind: rule.kind, before: statement.sql, after: rewritten))
            result.sql = rewritten
            statement = parsed
        }
        return result
    }

    /// A failed statement mended by the first repair that applies to SQLite's error
    /// (`context.error`), then given the equivalences; nil when no repair applies.
    func repaired(_ sql: String, in context: RewriteContext) -> Rewritten? {
        let statement = ParsedStatement(sql, schema: context.schema)
        guard statement.isQuery, context.error != nil else { return nil }
        for rule in rules where rule.kind == .repair {
            guard let (rewritten, _) = apply(rule, to: statement, in: context) else { continue }
            var result = equivalences(of: rewritten, in: context)
            result.applied.insert(AppliedRewrite(rule: rule.name, kind: rule.kind, before: sql, after: rewritten), at: 0)
            return result
        }
        return nil
    }

    /// One alternative statement per guess that applies to a read, each guess applied alone to
    /// `sql` and then given the equivalences; alternatives that repeat an earlier one are left out.
    func guesses(of sql: String, in context: RewriteContext) -> [Rewritten] {
        let statement = ParsedStatement(sql, schema: context.schema)
        guard statement.isQuery else { return [] }
        var alternatives: [Rewritten] = []
        for rule in rules where rule.kind == .guess {
            guard let (rewritten, _) = apply(rule, to: statement, in: context) else { continue }
            var result = equivalences(of: rewritten, in: context)
            result.applied.insert(AppliedRewrite(rule: rule.name, kind: rule.kind, before: sql, after: rewritten), at: 0)
            if !alternatives.contains(where: { $0.sql == result.sql }) { alternatives.append(result) }
        }
        return alternatives
    }

    /// The rule applied to the statement as many times as it may: the final text and its parse,
    /// or nil when the rule changes nothing.
    private func apply(
        _ rule: any SQLRewriteRule, to statement: ParsedStatement, in context: RewriteContext
    ) -> (String, ParsedStatement)? {
        rule.applyingRepeatedly(to: statement, in: context).map { ($0.sql, $0) }
    }
}
