import SwiftDBAI

/// Makes HAVING use the aggregate the model named: in `SELECT SUM(l.Price) AS Total … FROM
/// Invoice i … HAVING Total > 45`, SQLite binds `Total` to the column `Invoice.Total` of some
/// row of the group, not to the alias, and the filter is silently wrong. The statement becomes
/// `HAVING (SUM(l.Price)) > 45`.
///
/// Applied only to a SELECT whose result column `expression AS name` holds an aggregate function
/// and whose name is also a column of a table of the statement, but not one the statement groups
/// by, to bare uses of that name in the outermost HAVING clause. An equivalence: a column neither
/// grouped nor aggregated is the value of an arbitrary row of each group, which nobody means when
/// they named an aggregate with that name.
struct HavingAliasCorrection: SQLRewriteRule {
    let name = "having_alias"
    let kind = SQLRewriteKind.equivalence

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, tokens, schema) = (statement.sql, statement.codeTokens, context.schema)
        guard statement.startsWithSelect,
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens),
              let having = SQLTokens.topLevelIndex(of: "having", in: tokens), from < having
        else { return nil }
        let tables = statement.references.compactMap { schema.table(named: $0.table) }
        let grouped = SQLTokens.topLevelIndex(of: "group", in: tokens).map { ($0 + 1)..<having } ?? having..<having
        let shadowing = Self.aggregateAliases(in: tokens, before: from, sql: sql).filter { alias in
            tables.contains { $0.column(named: alias.name) != nil } && !grouped.contains { tokens[$0].names(alias.name) }
        }
        guard !shadowing.isEmpty else { return nil }

        var edits: [SQLTokens.Edit] = []
        var depth = 0
        let ends: Set<String> = ["order", "limit", "window", "union", "except", "intersect"]
        var index = having
        while index + 1 < tokens.count {
            index += 1
            let token = tokens[index]
            // A subquery names its own columns: its aggregates are not the outer statement's.
            if token.kind == .symbol, token.text == "(", index + 1 < tokens.count, tokens[index + 1].isKeyword("select") {
                guard let close = SQLTokens.closingParenthesis(of: index, in: tokens) else { break }
                index = close
                continue
            }
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0, token.kind == .word, ends.contains(SQLIdentifier.foldCase(token.text)) { break }
            guard token.kind != .symbol,
                  index == 0 || tokens[index - 1].text != ".",
                  index + 1 >= tokens.count || (tokens[index + 1].text != "." && tokens[index + 1].text != "("),
                  let alias = shadowing.first(where: { token.names($0.name) }) else { continue }
            edits.append(SQLTokens.Edit(range: token.range, text: "(\(alias.expression))"))
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// The result columns written `expression AS name` whose expression calls an aggregate.
    private static func aggregateAliases(
        in tokens: [SQLTokens.Token], before from: Int, sql: String
    ) -> [(name: String, expression: String)] {
        let aggregates: Set<String> = ["sum", "count", "avg", "min", "max", "total", "group_concat"]
        var items: [Range<Int>] = []
        var start = tokens.count > 1 && (tokens[1].isKeyword("distinct") || tokens[1].isKeyword("all")) ? 2 : 1
        var depth = 0
        for index in start..<from {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            if depth == 0, token.kind == .symbol, token.text == "," {
                items.append(start..<index)
                start = index + 1
            }
        }
        items.append(start..<from)
        return items.compactMap { item in
            guard item.count >= 3, tokens[item.upperBound - 2].isKeyword("as"), tokens[item.upperBound - 1].kind != .symbol,
                  tokens[item.lowerBound..<(item.upperBound - 2)].indices.contains(where: { index in
                      tokens[index].kind == .word && aggregates.contains(SQLIdentifier.foldCase(tokens[index].text))
                          && index + 1 < tokens.count && tokens[index + 1].text == "("
                  })
            else { return nil }
            let expression = sql[tokens[item.lowerBound - 1].range.upperBound..<tokens[item.upperBound - 2].range.lowerBound]
            return (tokens[item.upperBound - 1].text, expression.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
