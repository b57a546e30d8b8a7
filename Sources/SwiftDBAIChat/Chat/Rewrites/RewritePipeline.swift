import SwiftDBAI

/// The one ordered pipeline of rewrites between the model's SQL and SQLite.
///
/// Rules are registered in ``standard`` in the order they apply. Each kind runs at its own moment:
/// - equivalences, in order, before the statement first runs (``equivalences(of:in:)``);
/// - repairs after SQLite rejects it: the first repair that applies, then the equivalences again
///   on the repaired statement (``repaired(_:in:)``);
/// - guesses after a read ran: each alone, giving a reading of the question the statement may
///   have missed, which the model is told as a doubt; a guess never replaces a statement that
///   runs (``guesses(of:in:)``).
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
    /// (`context.failure`), then given the equivalences; nil when no repair applies.
    func repaired(_ sql: String, in context: RewriteContext) -> Rewritten? {
        let statement = ParsedStatement(sql, schema: context.schema)
        guard statement.isQuery, context.failure != nil else { return nil }
        for rule in rules where rule.kind == .repair {
            guard let (rewritten, _) = apply(rule, to: statement, in: context) else { continue }
            var result = equivalences(of: rewritten, in: context)
            result.applied.insert(AppliedRewrite(rule: rule.name, kind: rule.kind, before: sql, after: rewritten), at: 0)
            return result
        }
        return nil
    }

    /// A reading of the question that a statement may have missed: the statement a guess would
    /// make of it, and what the model is told.
    struct Guess: Sendable, Hashable {
        /// The guess's name.
        var rule: String
        /// The statement rewritten by the guess alone, then given the equivalences.
        var rewritten: Rewritten
        /// What the guess sees, for the model.
        var doubt: String
    }

    /// The guesses that apply to a read, each applied alone to `sql`; a guess that has nothing to
    /// tell the model, or makes a statement an earlier one made, is left out.
    func guesses(of sql: String, in context: RewriteContext) -> [Guess] {
        let statement = ParsedStatement(sql, schema: context.schema)
        guard statement.isQuery else { return [] }
        var guesses: [Guess] = []
        for rule in rules where rule.kind == .guess {
            guard let doubt = rule.doubt(in: context), let (rewritten, _) = apply(rule, to: statement, in: context) else { continue }
            var result = equivalences(of: rewritten, in: context)
            result.applied.insert(AppliedRewrite(rule: rule.name, kind: rule.kind, before: sql, after: rewritten), at: 0)
            if !guesses.contains(where: { $0.rewritten.sql == result.sql }) {
                guesses.append(Guess(rule: rule.name, rewritten: result, doubt: doubt))
            }
        }
        return guesses
    }

    /// The rule applied to the statement: the new text and its parse, or nil when the rule
    /// changes nothing (or would make a statement that no longer only reads).
    private func apply(
        _ rule: any SQLRewriteRule, to statement: ParsedStatement, in context: RewriteContext
    ) -> (String, ParsedStatement)? {
        guard let rewritten = rule.rewrite(statement, in: context), rewritten != statement.sql else { return nil }
        let parsed = ParsedStatement(rewritten, schema: context.schema)
        return parsed.isQuery ? (rewritten, parsed) : nil
    }
}
