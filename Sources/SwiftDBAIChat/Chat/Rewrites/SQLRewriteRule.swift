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
    /// How many times in a row the rule may apply to its own output (a join mended, then the
    /// next one); 1 for most.
    var maxApplications: Int { get }
    /// The statement rewritten, or nil when the rule does not apply.
    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String?
    /// For a guess: what it sees in a statement it would rewrite, told to the model as a doubt
    /// (one line, no SQL: the model decides what to write). Nil for the other kinds.
    func doubt(in context: RewriteContext) -> String?
}

extension SQLRewriteRule {
    var maxApplications: Int { 1 }

    func doubt(in context: RewriteContext) -> String? { nil }
}

/// What a rule may read besides the statement.
struct RewriteContext: Sendable {
    /// The schema the model sees (hidden tables left out).
    var schema: DatabaseSchema
    /// The column profiles of the schema version (NULL counts, categories, dates).
    var profiles: [ColumnProfile]
    /// The question as asked (guesses only read it).
    var question: String
    /// SQLite's message for the failed statement (repairs only).
    var error: String?

    init(schema: DatabaseSchema, profiles: [ColumnProfile], question: String, error: String? = nil) {
        self.schema = schema
        self.profiles = profiles
        self.question = question
        self.error = error
    }
}

extension SQLRewriteRule {
    /// The rule applied to a statement, then again to its own output up to
    /// ``maxApplications`` times: the parse of the final text, or nil when the rule changes
    /// nothing (or would make a statement that no longer only reads).
    func applyingRepeatedly(to statement: ParsedStatement, in context: RewriteContext) -> ParsedStatement? {
        var current = statement
        var changed = false
        for _ in 0..<max(1, maxApplications) {
            guard let rewritten = rewrite(current, in: context), rewritten != current.sql else { break }
            current = ParsedStatement(rewritten, schema: context.schema)
            changed = true
            guard current.isQuery else { return nil }
        }
        return changed ? current : nil
    }

    /// The rule applied to a statement's text as the pipeline applies it: the rewritten text, or
    /// nil. For tests and one-off use; the pipeline parses once for every rule.
    func applied(
        to sql: String, question: String = "", error: String? = nil, schema: DatabaseSchema = DatabaseSchema(tables: []),
        profiles: [ColumnProfile] = []
    ) -> String? {
        applyingRepeatedly(
            to: ParsedStatement(sql, schema: schema),
            in: RewriteContext(schema: schema, profiles: profiles, question: question, error: error))?.sql
    }
}
