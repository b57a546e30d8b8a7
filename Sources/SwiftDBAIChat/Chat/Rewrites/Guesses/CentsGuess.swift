import Foundation
import SwiftDBAI

/// Money stored in cents, in columns whose names say so (`price_cents`, `totalCents`), read as a
/// question in dollars means it:
/// - `SUM(amount_cents / 100)` or `SUM(amount_cents) / 100` divides integers, which drops the
///   cents of every row (its statement: `100.0`);
/// - "tickets over $200" written as `price_cents > 200` compares cents with dollars (its
///   statement: `20000`, for a number that is, alone, an amount the question gives in dollars:
///   `price_cents > 20 * 100` is already in cents).
///
/// A guess: it reads the column's name and the question's amounts. When its statement returns
/// other rows, the model is told that the column holds cents; it is never applied.
struct CentsGuess: SQLRewriteRule {
    let name = "cents"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "Columns named like …_cents hold cents: a dollar amount is 100 times as many cents, and dividing cents by 100 "
            + "as integers drops the cents (divide by 100.0)."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let question = context.question
        let tokens = statement.codeTokens
        guard tokens.contains(where: Self.isCentsName) else { return nil }
        var edits = Self.divisionEdits(in: tokens)
        let amounts = Self.dollarAmounts(in: question)
        if !amounts.isEmpty {
            edits += Self.comparisonEdits(in: tokens, amounts: amounts).filter { edit in
                !edits.contains { $0.range.overlaps(edit.range) }
            }
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// True for a name whose words include `cents` (`unit_price_cents`, `amountCents`).
    static func isCentsName(_ token: SQLTokens.Token) -> Bool {
        SQLTokens.isName(token) && isCentsName(token.text)
    }

    /// True for a column name whose words include `cents`.
    static func isCentsName(_ name: String) -> Bool {
        NameWords.ofIdentifier(name).contains { $0 == "cent" || $0 == "cents" }
    }

    /// `/ 100` whose dividend mentions a cents column becomes `/ 100.0`.
    private static func divisionEdits(in tokens: [SQLTokens.Token]) -> [SQLTokens.Edit] {
        var edits: [SQLTokens.Edit] = []
        for index in tokens.indices.dropFirst() where tokens[index].kind == .symbol && tokens[index].text == "/" {
            guard let divisor = SQLTokens.number(startingAt: index + 1, in: tokens), divisor.last == index + 1,
                  tokens[index + 1].text == "100", dividend(endingAt: index - 1, in: tokens).contains(where: { isCentsName(tokens[$0]) })
            else { continue }
            edits.append(SQLTokens.Edit(range: tokens[index + 1].range, text: "100.0"))
        }
        return edits
    }

    /// The indices of the operand chain that a `/` after `index` divides: back over `*` and `/`
    /// and whole parenthesised groups, up to an operator of lower precedence, a comma, an open
    /// parenthesis or a keyword.
    private static func dividend(endingAt index: Int, in tokens: [SQLTokens.Token]) -> [Int] {
        let stopSymbols: Set<String> = [",", "+", "-", "<", ">", "=", "!", "|"]
        let stopWords: Set<String> = [
            "select", "where", "and", "or", "not", "when", "then", "else", "case", "by", "as", "on", "having", "between",
            "distinct", "end", "in", "is", "like",
        ]
        var indices: [Int] = []
        var depth = 0
        var position = index
        while position >= 0 {
            let token = tokens[position]
            if token.kind == .symbol, token.text == ")" { depth += 1 }
            if token.kind == .symbol, token.text == "(" {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0 {
                if token.kind == .symbol, stopSymbols.contains(token.text) { break }
                if token.kind == .word, stopWords.contains(SQLIdentifier.foldCase(token.text)) { break }
            }
            indices.append(position)
            position -= 1
        }
        return indices
    }

    /// A number compared with a cents column that equals a dollar amount of the question becomes
    /// that amount in cents: `price_cents > 200` → `price_cents > 20000`.
    private static func comparisonEdits(in tokens: [SQLTokens.Token], amounts: Set<Double>) -> [SQLTokens.Edit] {
        let comparison: Set<String> = ["<", ">", "=", "!"]
        var edits: [SQLTokens.Edit] = []
        for index in tokens.indices where isCentsName(tokens[index]) {
            guard index + 1 == tokens.count || tokens[index + 1].text != "(" else { continue }
            var position = index + 1
            while position < tokens.count, tokens[position].kind == .symbol, comparison.contains(tokens[position].text) { position += 1 }
            var numbers: [Int] = []
            if position > index + 1 {
                numbers = [position]
            } else if position < tokens.count, tokens[position].isKeyword("between") {
                numbers = [position + 1]
                if let low = SQLTokens.number(startingAt: position + 1, in: tokens), low.last + 2 < tokens.count,
                   tokens[low.last + 1].isKeyword("and") {
                    numbers.append(low.last + 2)
                }
            } else {
                var before = index - 1
                if before >= 1, tokens[before].text == "." { before -= 2 }
                var operatorStart = before
                while operatorStart >= 0, tokens[operatorStart].kind == .symbol, comparison.contains(tokens[operatorStart].text) {
                    operatorStart -= 1
                }
                guard operatorStart < before, operatorStart >= 0 else { continue }
                var start = operatorStart
                if start >= 2, tokens[start - 1].text == "." { start -= 2 }
                numbers = [start]
            }
            for start in numbers {
                guard let number = SQLTokens.number(startingAt: start, in: tokens), amounts.contains(number.value),
                      start == 0 || tokens[start - 1].text != ".", isLoneOperand(start..<(number.last + 1), in: tokens)
                else { continue }
                let cents = Int((number.value * 100).rounded())
                edits.append(SQLTokens.Edit(range: tokens[start].range.lowerBound..<tokens[number.last].range.upperBound, text: String(cents)))
            }
        }
        return edits
    }

    /// True when no arithmetic joins the number at `range` to what is beside it: `20` of
    /// `20 * 100` is part of an amount already converted, not an amount in dollars.
    private static func isLoneOperand(_ range: Range<Int>, in tokens: [SQLTokens.Token]) -> Bool {
        let arithmetic: Set<String> = ["*", "/", "+", "-", "%"]
        let before = range.lowerBound - 1, after = range.upperBound
        return !(before >= 0 && tokens[before].kind == .symbol && arithmetic.contains(tokens[before].text))
            && !(after < tokens.count && tokens[after].kind == .symbol && arithmetic.contains(tokens[after].text))
    }

    /// The amounts a question gives in dollars: `$200`, `$1,250.50`, `200 dollars`.
    static func dollarAmounts(in question: String) -> Set<Double> {
        let patterns = [#"\$\s?([0-9][0-9,]*(?:\.[0-9]{1,2})?)"#, #"([0-9][0-9,]*(?:\.[0-9]{1,2})?)\s*(?:dollars|usd)\b"#]
        var amounts: Set<Double> = []
        for pattern in patterns {
            guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else { continue }
            let range = NSRange(question.startIndex..., in: question)
            for match in expression.matches(in: question, range: range) {
                guard let captured = Range(match.range(at: 1), in: question),
                      let value = Double(question[captured].replacingOccurrences(of: ",", with: "")), value > 0
                else { continue }
                amounts.insert(value)
            }
        }
        return amounts
    }
}
