import SwiftDBAI

/// A statement as every rewrite rule reads it, made once per statement text: its tokens (with and
/// without string literals) and the tables it names. Rules read this instead of tokenising the
/// text again; a rule that changes the text gets a new parse from the pipeline.
///
/// This is a reading of the text for rewrites, never a parse that decides what a statement may
/// do: SQLite's compiler classifies every statement, rewritten or not.
struct ParsedStatement: Sendable {
    /// The statement's text.
    let sql: String
    /// Every token, string literals included (`.string`, their value unquoted).
    let tokens: [SQLTokens.Token]
    /// The tokens without string literals; each keeps its range in ``sql``.
    let codeTokens: [SQLTokens.Token]
    /// True for a statement that only reads, as written (``SQLTokens/isQuery(_:)``).
    let isQuery: Bool
    /// The tables of the statement the schema knows, read from ``codeTokens``.
    let references: [TableReference]
    /// The same tables read from ``tokens``, whose indices count the string literals.
    let referencesAmongAllTokens: [TableReference]

    init(_ sql: String, schema: DatabaseSchema) {
        self.sql = sql
        tokens = SQLTokens(sql, keepingStrings: true).tokens
        codeTokens = tokens.filter { $0.kind != .string }
        isQuery = SQLTokens.isQuery(codeTokens)
        references = TableReference.all(in: codeTokens, schema: schema)
        referencesAmongAllTokens = TableReference.all(in: tokens, schema: schema)
    }

    /// True when the statement starts with SELECT, holds no other SELECT (no subquery) and no
    /// UNION, EXCEPT or INTERSECT at its top level.
    var isSingleSelect: Bool {
        startsWithSelect && codeTokens.filter { $0.isKeyword("select") }.count == 1 && !isCompound
    }

    /// True when the first token is SELECT (not WITH).
    var startsWithSelect: Bool {
        codeTokens.first?.isKeyword("select") ?? false
    }

    /// True when UNION, EXCEPT or INTERSECT joins SELECTs at the top level.
    var isCompound: Bool {
        ["union", "except", "intersect"].contains { SQLTokens.topLevelIndex(of: $0, in: codeTokens) != nil }
    }
}
