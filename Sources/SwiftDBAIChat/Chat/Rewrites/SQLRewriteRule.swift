import SwiftDBAI

/// One rule of the ``RewritePipeline``: reads a parsed statement and returns it rewritten, or nil
/// when it does not apply.
///
/// A rule never tokenises the statement itself: it reads the ``ParsedStatement`` the pipeline
/// made once for every rule. Rules are applied only to statements that read, as written; a write
/// keeps what the model wrote. Whatever a rule returns goes through SQLite's classifier and the
/// policy like any other statement.
protocol SQLRewriteRule: Sendable {
    /// A stable name, shown in answers (`rewrites[].rule`).
    var name: String { get }
    /// What the rule may assume, which decides when the pipeline applies it.
    var kind: SQLRewriteKind { get }
    /// The statement rewritten, or nil when the rule does not apply.
    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String?
    /// For a guess: what it sees in a statement it would rewrite, told to the model as a doubt
    /// (one line, no SQL: the model decides what to write). Nil for the other kinds.
    func doubt(in context: RewriteContext) -> String?
}

extension SQLRewriteRule {
    func doubt(in context: RewriteContext) -> String? { nil }
}
