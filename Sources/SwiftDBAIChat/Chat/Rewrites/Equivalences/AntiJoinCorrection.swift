import SwiftDBAI

/// Makes an anti-join find something: "How many completed events got no review?" written as
/// `FROM events e JOIN reviews r ON r.event_id = e.id WHERE r.id IS NULL` can never match,
/// because an inner join keeps only events that have a review, and those have a review id.
/// The join becomes a LEFT JOIN, which is what `IS NULL` on the joined table asks for.
///
/// Applied when a table brought in by an inner `JOIN` (not a comma) is tested with
/// `alias.column IS NULL`, and that column cannot be NULL after the join: its primary key, a
/// NOT NULL column, or a column its ON condition compares. An equivalence: as written, the
/// statement can never match a row.
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
            let tested = Self.nullTests(of: reference.alias, in: tokens).filter { !condition.contains($0) }
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

    /// The indices of `alias` in each `alias.column IS NULL` of the tokens (not `IS NOT NULL`).
    private static func nullTests(of alias: String, in tokens: [SQLTokens.Token]) -> [Int] {
        tokens.indices.filter { index in
            index + 4 < tokens.count && tokens[index].names(alias) && tokens[index + 1].text == "."
                && SQLTokens.isName(tokens[index + 2]) && tokens[index + 3].isKeyword("is") && tokens[index + 4].isKeyword("null")
        }
    }
}
