/// One rewrite applied to the model's SQL on the way to SQLite: which rule, of which kind, and the
/// statement before and after it. An answer lists every one, in the order applied, so that what
/// ran can always be traced back to what the model wrote.
public struct AppliedRewrite: Sendable, Hashable, Codable {
    /// The rule's name (`not_in_null`, `join_bridge`, …).
    public var rule: String
    /// What the rule may assume.
    public var kind: SQLRewriteKind
    /// The statement the rule was given.
    public var before: String
    /// The statement it made.
    public var after: String

    /// Creates a record of one rewrite.
    public init(rule: String, kind: SQLRewriteKind, before: String, after: String) {
        self.rule = rule
        self.kind = kind
        self.before = before
        self.after = after
    }
}
