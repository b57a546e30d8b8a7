import SwiftDBAI

/// Puts what a grouped result is grouped by first: "How much have we refunded for each reason?"
/// written as `SELECT SUM(amount_cents) / 100.0 AS total, reason FROM refunds GROUP BY reason`
/// becomes `SELECT reason, SUM(amount_cents) / 100.0 AS total …`, the reading order of "for
/// each reason, the total" and of a table whose first column names its rows.
///
/// Applied to one SELECT with a GROUP BY, when a result column that is exactly a grouped
/// expression (`reason`, `r.reason`) or whose alias is grouped by comes after one that is not,
/// and no ORDER BY names a result column by its position; the result columns keep their
/// order otherwise. Only statements that read are changed. The rewritten statement goes through
/// the classifier and policy like any other.
struct GroupKeyOrder: SQLRewriteRule {
    let name = "group_key_order"
    let kind = SQLRewriteKind.guess

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let tokens = statement.tokens
        guard tokens.count > 3, tokens[0].isKeyword("select"),
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens),
              let group = SQLTokens.topLevelIndex(of: "group", in: tokens), group + 1 < tokens.count, tokens[group + 1].isKeyword("by"),
              SQLTokens.topLevelIndex(of: "union", in: tokens) == nil, SQLTokens.topLevelIndex(of: "except", in: tokens) == nil,
              SQLTokens.topLevelIndex(of: "intersect", in: tokens) == nil
        else { return nil }
        let listStart = tokens[1].isKeyword("distinct") || tokens[1].isKeyword("all") ? 2 : 1
        let groupEnd = SQLTokens.topLevelIndex(ofAny: ["having", "order", "limit", "window"], in: tokens, from: group + 2)
        let keys = Set(SQLTokens.topLevelParts(of: tokens, from: group + 2, to: groupEnd).map { Self.text(of: $0, in: tokens) })
        let items = SQLTokens.topLevelParts(of: tokens, from: listStart, to: from)
        guard items.count >= 2, !SQLTokens.ordersByPosition(tokens) else { return nil }
        let isKey = items.map { item in
            let expression = Self.expression(of: item, in: tokens)
            let alias = expression.upperBound + 1 < item.upperBound ? Self.text(of: (expression.upperBound + 1)..<item.upperBound, in: tokens) : nil
            return keys.contains(Self.text(of: expression, in: tokens)) || alias.map(keys.contains) == true
        }
        guard let firstOther = isKey.firstIndex(of: false), isKey[firstOther...].contains(true) else { return nil }
        let ordered = zip(items, isKey).filter(\.1).map(\.0) + zip(items, isKey).filter { !$0.1 }.map(\.0)
        let listText = ordered.map { item in String(sql[tokens[item.lowerBound].range.lowerBound..<tokens[item.upperBound - 1].range.upperBound]) }
            .joined(separator: ", ")
        let range = tokens[items[0].lowerBound].range.lowerBound..<tokens[items[items.count - 1].upperBound - 1].range.upperBound
        return sql.replacingCharacters(in: range, with: listText)
    }

    /// The item without its alias (`x AS name` → `x`).
    private static func expression(of item: Range<Int>, in tokens: [SQLTokens.Token]) -> Range<Int> {
        var depth = 0
        for index in item {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            if depth == 0, token.isKeyword("as"), index > item.lowerBound { return item.lowerBound..<index }
        }
        return item
    }

    /// The tokens' texts, case-folded, without the qualifier of a lone column (`r.reason` and
    /// `reason` compare equal).
    private static func text(of range: Range<Int>, in tokens: [SQLTokens.Token]) -> String {
        var parts = tokens[range].map { $0.kind == .string ? "'" + $0.text + "'" : SQLIdentifier.foldCase($0.text) }
        if parts.count == 3, parts[1] == "." { parts = [parts[2]] }
        return parts.joined(separator: " ")
    }
}
