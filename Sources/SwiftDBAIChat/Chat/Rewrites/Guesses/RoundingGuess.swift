import Foundation
import SwiftDBAI

/// Sees the rounding a question asks for and a statement leaves out: "What is the average
/// rating, rounded to two decimals?" answered with `SELECT AVG(rating) FROM reviews`; its
/// statement is `ROUND(AVG(rating), 2)`. Small models often drop the rounding a question spells
/// out.
///
/// It sees a question that names the places ("to two decimal places", "to 1 decimal", "to the
/// nearest cent", "to the nearest whole number") and a statement with no `ROUND`; its statement
/// wraps each result column of the outer SELECT that averages, sums or divides, its alias kept.
/// A guess: when that statement returns other rows, the model is told the question asks for the
/// rounding; it is never applied.
struct RoundingGuess: SQLRewriteRule {
    let name = "rounding"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        guard let places = Self.places(in: context.question) else { return nil }
        return "The question asks for the result rounded to \(places) decimal place\(places == 1 ? "" : "s"); the statement does not round it."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let question = context.question
        guard let places = Self.places(in: question) else { return nil }
        let tokens = statement.codeTokens
        guard statement.startsWithSelect, !statement.isCompound, !tokens.contains(where: { $0.isKeyword("round") }) else { return nil }
        let listStart = tokens.count > 1 && (tokens[1].isKeyword("distinct") || tokens[1].isKeyword("all")) ? 2 : 1
        let listEnd = SQLTokens.topLevelIndex(ofAny: ["from"], in: tokens, from: listStart)
        var edits: [SQLTokens.Edit] = []
        for item in Self.items(in: tokens, from: listStart, to: listEnd) {
            let expression = tokens[item]
            guard expression.contains(where: Self.rounds) else { continue }
            let start = tokens[item.lowerBound].range.lowerBound
            edits.append(SQLTokens.Edit(range: start..<start, text: "ROUND("))
            let end = tokens[item.upperBound - 1].range.upperBound
            edits.append(SQLTokens.Edit(range: end..<end, text: ", \(places))"))
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// The decimal places a question asks for, or nil when it asks for no rounding.
    /// A number of places counts only as the places of a result: anywhere in a question that says
    /// "round", else after "to" or "with" at the end of a phrase ("to two decimals", "with 1
    /// decimal place."); "products with two decimal prices" is a fact about the data.
    static func places(in question: String) -> Int? {
        let text = question.lowercased()
        let rounds = text.range(of: #"\bround"#, options: .regularExpression) != nil
        if text.contains("nearest cent") { return 2 }
        if text.range(of: #"nearest (whole number|integer|dollar|whole)"#, options: .regularExpression) != nil { return 0 }
        let numbers = ["zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4]
        // Without "round": "to/with N decimals (places, digits)", and no other word of the
        // sentence after it ("with two decimal prices" is about prices).
        let pattern = rounds
            ? #"\b(zero|one|two|three|four|[0-4])\s+decimal"#
            : #"\b(to|with) (zero|one|two|three|four|[0-4])\s+decimals?\b(\s+(places?|digits?)\b)?(?!\s+(?!and\b|or\b|then\b|please\b)[a-z])"#
        guard let range = text.range(of: pattern, options: .regularExpression) else { return nil }
        let words = text[range].split(separator: " ").map(String.init)
        return words.lazy.compactMap { numbers[$0] }.first
    }

    /// True for a token that makes a result column fractional: an average, a sum, a division.
    private static func rounds(_ token: SQLTokens.Token) -> Bool {
        (token.kind == .symbol && token.text == "/") || token.isKeyword("avg") || token.isKeyword("sum") || token.isKeyword("total")
    }

    /// The token ranges of the result columns' expressions (aliases left out) between `start`
    /// and `end`; an item whose alias cannot be told from its expression is left out.
    private static func items(in tokens: [SQLTokens.Token], from start: Int, to end: Int) -> [Range<Int>] {
        SQLTokens.topLevelParts(of: tokens, from: start, to: end).compactMap { part in
            var itemEnd = part.upperBound
            if let alias = SQLTokens.topLevelIndex(of: "as", in: Array(tokens[part])) {
                itemEnd = part.lowerBound + alias
            } else if part.count >= 2, SQLTokens.isName(tokens[part.upperBound - 1]), !tokens[part.upperBound - 1].isKeyword("end"),
                      tokens[part.upperBound - 2].kind != .symbol || tokens[part.upperBound - 2].text == ")" {
                itemEnd = part.upperBound - 1
            }
            return itemEnd > part.lowerBound ? part.lowerBound..<itemEnd : nil
        }
    }
}
