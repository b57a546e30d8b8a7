import SwiftDBAI

/// Keeps `NOT IN` from answering nothing: `x NOT IN (SELECT c FROM t)` is never true once `c`
/// holds a NULL, so "Which promo codes were never used?" comes back empty when orders without
/// a code leave `orders.promo_code_id` NULL. The subquery gets `c IS NOT NULL`, which is what
/// the question means.
///
/// Applied when the subquery selects one column, of a table in its own FROM, that is NULL in at
/// least one row (the column profiles say so), unless the subquery already tests `c IS NOT
/// NULL`. An equivalence: such a `NOT IN` never holds, so nobody can have meant it.
struct NotInNullCorrection: SQLRewriteRule {
    let name = "not_in_null"
    let kind = SQLRewriteKind.equivalence

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, tokens, schema, profiles) = (statement.sql, statement.tokens, context.schema, context.profiles)
        guard tokens.count > 4 else { return nil }
        var edits: [SQLTokens.Edit] = []
        for index in 0..<(tokens.count - 3)
        where tokens[index].isKeyword("not") && tokens[index + 1].isKeyword("in") && tokens[index + 2].text == "("
            && tokens[index + 3].isKeyword("select") {
            guard let close = SQLTokens.closingParenthesis(of: index + 2, in: tokens) else { continue }
            let subquery = Array(tokens[(index + 3)..<close])
            edits += Self.nullFilter(for: subquery, closing: tokens[close], sql: sql, schema: schema, profiles: profiles)
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// The edits that add `c IS NOT NULL` to a subquery that selects column `c`, when `c` holds
    /// NULLs; none otherwise.
    private static func nullFilter(
        for subquery: [SQLTokens.Token], closing: SQLTokens.Token, sql: String, schema: DatabaseSchema, profiles: [ColumnProfile]
    ) -> [SQLTokens.Edit] {
        let compound: Set<String> = ["union", "except", "intersect"]
        guard !subquery.contains(where: { $0.kind == .word && compound.contains(SQLIdentifier.foldCase($0.text)) }) else { return [] }
        let start = subquery.count > 1 && subquery[1].isKeyword("distinct") ? 2 : 1
        guard let selected = SQLTokens.columnReference(startingAt: start, in: subquery),
              selected.name + 1 < subquery.count, subquery[selected.name + 1].isKeyword("from")
        else { return [] }
        let column = subquery[selected.name].text
        let references = TableReference.all(in: subquery, schema: schema)
        guard let owner = TableReference.owner(
            ofColumn: column, qualifier: selected.qualifier.map { subquery[$0].text }, among: references, schema: schema),
            profiles.contains(where: {
                SQLIdentifier.same($0.table, owner.name) && SQLIdentifier.same($0.column, column) && $0.nullCount > 0
            })
        else { return [] }
        // A subquery that already leaves out the NULLs is right as written.
        let excludesNulls = subquery.indices.contains { (index: Int) -> Bool in
            guard index + 3 < subquery.count, subquery[index].names(column), subquery[index + 1].isKeyword("is") else { return false }
            return subquery[index + 2].isKeyword("not") && subquery[index + 3].isKeyword("null")
        }
        guard !excludesNulls else { return [] }
        let reference = String(sql[subquery[selected.qualifier ?? selected.name].range.lowerBound..<subquery[selected.name].range.upperBound])
        let test = "\(reference) IS NOT NULL"
        let ends: Set<String> = ["group", "order", "limit", "window", "having"]
        if let whereIndex = SQLTokens.topLevelIndex(of: "where", in: subquery) {
            let end = SQLTokens.topLevelIndex(ofAny: ends, in: subquery, from: whereIndex + 1)
            guard end > whereIndex + 1 else { return [] }
            let afterWhere = subquery[whereIndex].range.upperBound
            let conditionStart = subquery[whereIndex + 1].range.lowerBound
            let conditionEnd = subquery[end - 1].range.upperBound
            return [
                SQLTokens.Edit(range: afterWhere..<conditionStart, text: " \(test) AND ("),
                SQLTokens.Edit(range: conditionEnd..<conditionEnd, text: ")"),
            ]
        }
        let end = SQLTokens.topLevelIndex(ofAny: ends, in: subquery, from: selected.name + 2)
        let position = end < subquery.count ? subquery[end].range.lowerBound : closing.range.lowerBound
        return [SQLTokens.Edit(range: position..<position, text: end < subquery.count ? "WHERE \(test) " : " WHERE \(test)")]
    }
}
