import SwiftDBAI

/// Makes an anti-join find something: "How many completed events got no review?" written as
/// `FROM events e JOIN reviews r ON r.event_id = e.id WHERE r.id IS NULL` can never match,
/// because an inner join keeps only events that have a review, and those have a review id.
/// The join becomes a LEFT JOIN, which is what `IS NULL` on the joined table asks for.
///
/// Applied when a table brought in by an inner `JOIN` (not a comma) is tested with
/// `alias.column IS NULL`, and that column cannot be NULL after the join: its primary key, a
/// NOT NULL column, or a column its ON condition compares — as a term of the outermost WHERE
/// that every row must meet (joined to the rest by AND only). An equivalence: as written, the
/// statement can never return a row. A test under OR, in the SELECT list or in a CASE can be
/// true of other rows, and is left alone.
struct AntiJoinCorrection: SQLRewriteRule {
    let name = "anti_join"
    let kind = SQLRewriteKind.equivalence

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, tokens, schema) = (statement.sql, statement.codeTokens, context.schema)
        var edits: [SQLTokens.Edit] = []
        for reference in statement.references where !reference.isLeftJoined {
            guard let join = (reference.start..<reference.end).first(where: { tokens[$0].isKeyword("join") }),
                  let table = schema.table(named: reference.table)
            else { continue }
            let condition = reference.end..<reference.clauseEnd(in: tokens)
            let tested = Self.nullTests(of: reference.alias, in: tokens, within: Self.requiredTerms(in: tokens))
            guard tested.contains(where: { index in
                let name = tokens[index + 2].text
                guard let column = table.column(named: name) else { return false }
                return column.primaryKeyPosition != nil || column.isNotNull
                    || !SQLTokens.occurrences(of: reference.alias, name, in: Array(tokens[condition])).isEmpty
            }) else { continue }
            edits.append(SQLTokens.Edit(
                range: tokens[reference.start].range.lowerBound..<tokens[join].range.upperBound, text: "LEFT JOIN"))
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// The indices of `alias` in each term `alias.column IS NULL` (not `IS NOT NULL`) among `terms`.
    private static func nullTests(of alias: String, in tokens: [SQLTokens.Token], within terms: [Range<Int>]) -> [Int] {
        terms.compactMap { term in
            let index = term.lowerBound
            guard term.count == 5, tokens[index].names(alias), tokens[index + 1].text == ".", SQLTokens.isName(tokens[index + 2]),
                  tokens[index + 3].isKeyword("is"), tokens[index + 4].isKeyword("null")
            else { return nil }
            return index
        }
    }

    /// The terms of the outermost WHERE that every row must meet: the whole condition split at
    /// its top-level ANDs; none when it has a top-level OR (then no term alone must hold).
    private static func requiredTerms(in tokens: [SQLTokens.Token]) -> [Range<Int>] {
        guard let start = SQLTokens.topLevelIndex(of: "where", in: tokens) else { return [] }
        let end = SQLTokens.topLevelIndex(ofAny: ["group", "order", "limit", "having", "window", "union", "except", "intersect"],
                                          in: tokens, from: start + 1)
        var terms: [Range<Int>] = []
        var depth = 0
        var termStart = start + 1
        for index in (start + 1)..<end {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            guard depth == 0, token.kind == .word else { continue }
            if token.isKeyword("or") { return [] }
            if token.isKeyword("and") {
                terms.append(termStart..<index)
                termStart = index + 1
            }
        }
        terms.append(termStart..<end)
        return terms
    }
}
