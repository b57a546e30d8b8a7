import SwiftDBAI

/// Answers "the highest" with a maximum, not a sum: "What's the biggest paid order we've ever
/// had?" written as `SELECT SUM(total_cents) / 100.0 FROM orders WHERE status = 'paid'` adds
/// every order up. When the question asks for one extreme (highest, biggest, largest, maximum,
/// most expensive; lowest, smallest, cheapest, minimum) and does not speak of totals, a SUM of
/// the outer SELECT becomes MAX or MIN.
///
/// Applied to one SELECT with no GROUP BY, ORDER BY or LIMIT (those rank groups or rows, where
/// a sum can be right) and no MAX or MIN already. Only statements that read are changed. The
/// rewritten statement goes through the classifier and policy like any other.
struct SuperlativeCorrection: SQLRewriteRule {
    let name = "superlative"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        guard let function = Self.extreme(in: context.question) else { return nil }
        return "The question asks for the \(function == "MAX" ? "highest" : "lowest") single value, not a total; the statement adds values up."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let question = context.question
        guard let function = Self.extreme(in: question) else { return nil }
        let tokens = statement.codeTokens
        guard tokens.count > 3, tokens[0].isKeyword("select"),
              tokens.filter({ $0.isKeyword("select") }).count == 1,
              !["group", "order", "limit", "union", "except", "intersect"].contains(where: { SQLTokens.topLevelIndex(of: $0, in: tokens) != nil }),
              !tokens.contains(where: { $0.isKeyword("max") || $0.isKeyword("min") })
        else { return nil }
        let sums = tokens.indices.filter { index in
            (tokens[index].isKeyword("sum") || tokens[index].isKeyword("total")) && index + 1 < tokens.count && tokens[index + 1].text == "("
        }
        guard !sums.isEmpty else { return nil }
        return SQLTokens.applying(sums.map { SQLTokens.Edit(range: tokens[$0].range, text: function) }, to: sql)
    }

    /// `MAX` or `MIN` for a question that asks for one extreme and not for a total; nil otherwise.
    static func extreme(in question: String) -> String? {
        let words = question.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        let totals: Set<String> = ["total", "totals", "sum", "combined", "overall", "altogether", "all", "each", "per", "every"]
        guard !words.contains(where: totals.contains) else { return nil }
        let highest: Set<String> = ["highest", "biggest", "largest", "maximum", "max", "priciest", "greatest"]
        let lowest: Set<String> = ["lowest", "smallest", "cheapest", "minimum", "min"]
        let pairs = zip(words, words.dropFirst()).map { "\($0) \($1)" }
        let isHighest = words.contains(where: highest.contains) || pairs.contains("most expensive")
        let isLowest = words.contains(where: lowest.contains) || pairs.contains("least expensive")
        if isHighest == isLowest { return nil }
        return isHighest ? "MAX" : "MIN"
    }
}
