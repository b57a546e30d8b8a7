import SwiftDBAI

/// Repairs table and column names with spaces written without quotes (`FROM Order Details`),
/// a syntax error small models make with schemas migrated from Access or spreadsheets.
///
/// Applied only to SQLite syntax errors: each run of bare words, separated by nothing but
/// spaces, that spells such a name (ignoring case) is replaced by the quoted name. The repaired
/// statement goes through the classifier and policy like any other.
struct UnquotedNameRepair: SQLRewriteRule {
    let name = "unquoted_name"
    let kind = SQLRewriteKind.repair

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, schema) = (statement.sql, context.schema)
        guard context.failure?.kind == .syntaxError else { return nil }
        var spaced: Set<String> = []
        for table in schema.tables {
            for name in [table.name] + table.columns.map(\.name) where name.contains(" ") {
                spaced.insert(name)
            }
        }
        let names: [(name: String, words: [String])] = spaced
            .map { name in (name, name.split(separator: " ").map(String.init)) }
            .sorted { $0.words.count > $1.words.count }
        guard !names.isEmpty else { return nil }
        let tokens = statement.codeTokens
        var replacements: [SQLTokens.Edit] = []
        var index = 0
        while index < tokens.count {
            if let match = names.first(where: { Self.spells($0.words, at: index, in: tokens, sql: sql) }) {
                let range = tokens[index].range.lowerBound..<tokens[index + match.words.count - 1].range.upperBound
                replacements.append(SQLTokens.Edit(range: range, text: SQLIdentifier.quote(match.name)))
                index += match.words.count
            } else {
                index += 1
            }
        }
        return replacements.isEmpty ? nil : SQLTokens.applying(replacements, to: sql)
    }

    /// True when the bare words from `index` on are `words`, with only spaces between them.
    private static func spells(_ words: [String], at index: Int, in tokens: [SQLTokens.Token], sql: String) -> Bool {
        guard index + words.count <= tokens.count else { return false }
        for (offset, word) in words.enumerated() {
            let token = tokens[index + offset]
            guard token.kind == .word, SQLIdentifier.same(token.text, word) else { return false }
            if offset > 0, !sql[tokens[index + offset - 1].range.upperBound..<token.range.lowerBound].allSatisfy({ $0 == " " }) {
                return false
            }
        }
        return true
    }
}
