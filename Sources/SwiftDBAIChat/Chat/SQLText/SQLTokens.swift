import SwiftDBAI

/// A light SQL tokenizer for the rewrites of model-written SQL: words, quoted identifiers and single
/// punctuation characters, with their ranges; comments are skipped, and string literals too
/// unless asked for.
///
/// Not a parser and never used to decide what a statement may do: the classifier compiles every
/// statement with SQLite, repaired or not.
package struct SQLTokens {
    package struct Token: Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            /// A bare word: keyword or identifier.
            case word
            /// An identifier in double quotes, backticks or brackets (`text` is the name).
            case quotedIdentifier
            /// One punctuation or operator character.
            case symbol
            /// A string literal (`text` is its value, doubled quotes undone); only with `keepingStrings`.
            case string
        }

        package var kind: Kind
        package var text: String
        package var range: Range<String.Index>

        /// True for a word or quoted identifier equal to `name` as SQLite compares names.
        package func names(_ name: String) -> Bool {
            (kind == .word || kind == .quotedIdentifier) && SQLIdentifier.same(text, name)
        }

        package func isKeyword(_ keyword: String) -> Bool {
            kind == .word && SQLIdentifier.same(text, keyword)
        }
    }

    package let tokens: [Token]

    /// - Parameter keepingStrings: Whether string literals become `.string` tokens; by default
    ///   they are skipped like comments.
    package init(_ sql: String, keepingStrings: Bool = false) {
        var tokens: [Token] = []
        var index = sql.startIndex
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_" || character == "$"
        }
        while index < sql.endIndex {
            let character = sql[index]
            let next = sql.index(after: index)
            if character.isWhitespace {
                index = next
            } else if character == "-", next < sql.endIndex, sql[next] == "-" {
                index = sql[index...].firstIndex(of: "\n") ?? sql.endIndex
            } else if character == "/", next < sql.endIndex, sql[next] == "*" {
                index = sql[next...].range(of: "*/")?.upperBound ?? sql.endIndex
            } else if character == "'" {
                let end = Self.end(of: "'", in: sql, after: index)
                if keepingStrings {
                    let innerEnd = end > next && sql[sql.index(before: end)] == "'" ? sql.index(before: end) : end
                    let value = String(sql[next..<max(next, innerEnd)]).replacingOccurrences(of: "''", with: "'")
                    tokens.append(Token(kind: .string, text: value, range: index..<end))
                }
                index = end
            } else if let close = Self.closingQuote(of: character) {
                let end = Self.end(of: close, in: sql, after: index)
                let innerEnd = end > next && sql[sql.index(before: end)] == close ? sql.index(before: end) : end
                tokens.append(Token(kind: .quotedIdentifier, text: String(sql[next..<innerEnd]), range: index..<end))
                index = end
            } else if isWordCharacter(character) {
                let end = sql[index...].firstIndex { !isWordCharacter($0) } ?? sql.endIndex
                tokens.append(Token(kind: .word, text: String(sql[index..<end]), range: index..<end))
                index = end
            } else {
                tokens.append(Token(kind: .symbol, text: String(character), range: index..<next))
                index = next
            }
        }
        self.tokens = tokens
    }

    /// A replacement of a range of a statement's text (an insertion when the range is empty).
    struct Edit {
        var range: Range<String.Index>
        var text: String
    }

    /// The statement with the edits made, from the last to the first so that each range still
    /// points at the text it was taken from. The edits must not overlap.
    static func applying(_ edits: [Edit], to sql: String) -> String {
        var result = sql
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            result.replaceSubrange(edit.range, with: edit.text)
        }
        return result
    }

    /// The indices of the qualifier tokens of `qualifier.column` in the tokens.
    static func occurrences(of qualifier: String, _ column: String, in tokens: [Token]) -> [Int] {
        tokens.indices.filter { index in
            index + 2 < tokens.count && tokens[index].names(qualifier) && tokens[index + 1].text == "."
                && tokens[index + 2].names(column)
        }
    }

    /// The indices of `column` where the tokens name it bare: not after or before a dot, and not
    /// called as a function.
    static func bareOccurrences(of column: String, in tokens: [Token]) -> [Int] {
        tokens.indices.filter { index in
            tokens[index].names(column) && (index == 0 || tokens[index - 1].text != ".")
                && (index + 1 == tokens.count || (tokens[index + 1].text != "." && tokens[index + 1].text != "("))
        }
    }

    /// True for a statement that only reads, as written: it starts with SELECT, or with WITH
    /// and names no INSERT, UPDATE, DELETE or REPLACE. The rewrite pipeline leaves writes as the
    /// model wrote them: `SET status = 'active'` is a value to store, not a comparison to fix.
    static func isQuery(_ tokens: [Token]) -> Bool {
        guard let first = tokens.first else { return false }
        if first.isKeyword("select") { return true }
        let writes: Set<String> = ["insert", "update", "delete", "replace"]
        return first.isKeyword("with") && !tokens.contains { $0.kind == .word && writes.contains(SQLIdentifier.foldCase($0.text)) }
    }

    /// A column named among the tokens, `name` or `qualifier.name`, as token indices.
    struct ColumnReference: Sendable, Hashable {
        var qualifier: Int?
        var name: Int
    }

    /// True for a token that can name a column: a quoted identifier, or a word that does not
    /// start with a digit.
    static func isName(_ token: Token) -> Bool {
        token.kind == .quotedIdentifier || (token.kind == .word && !(token.text.first?.isNumber ?? true))
    }

    /// The column reference whose name is the token at `index`, read backwards over its
    /// qualifier; nil when the token is no name or follows a dot without a qualifier.
    static func columnReference(endingAt index: Int, in tokens: [Token]) -> ColumnReference? {
        guard tokens.indices.contains(index), isName(tokens[index]) else { return nil }
        if index >= 2, tokens[index - 1].text == ".", isName(tokens[index - 2]) { return ColumnReference(qualifier: index - 2, name: index) }
        if index >= 1, tokens[index - 1].text == "." { return nil }
        return ColumnReference(qualifier: nil, name: index)
    }

    /// The column reference that starts at `index`; nil when the tokens there are no name, a
    /// function call or a longer dotted path.
    static func columnReference(startingAt index: Int, in tokens: [Token]) -> ColumnReference? {
        guard tokens.indices.contains(index), isName(tokens[index]) else { return nil }
        let next = index + 1
        if next < tokens.count, tokens[next].text == "(" { return nil }
        if next + 1 < tokens.count, tokens[next].text == ".", isName(tokens[next + 1]) {
            if next + 2 < tokens.count, tokens[next + 2].text == "(" || tokens[next + 2].text == "." { return nil }
            return ColumnReference(qualifier: index, name: next + 1)
        }
        return ColumnReference(qualifier: nil, name: index)
    }

    /// Text as an SQL string literal: in single quotes, inner quotes doubled.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The index of the `)` that closes the `(` at `index`, or nil when it is not closed.
    static func closingParenthesis(of index: Int, in tokens: [Token]) -> Int? {
        var depth = 0
        for position in index..<tokens.count where tokens[position].kind == .symbol {
            if tokens[position].text == "(" { depth += 1 }
            if tokens[position].text == ")" {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }

    /// The index of the first of `keywords` outside parentheses at or after `start`, or
    /// `tokens.count` when none follows.
    static func topLevelIndex(ofAny keywords: Set<String>, in tokens: [Token], from start: Int) -> Int {
        var depth = 0
        for index in start..<tokens.count {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            if depth < 0 { return index }
            if depth == 0, token.kind == .word, keywords.contains(SQLIdentifier.foldCase(token.text)) { return index }
        }
        return tokens.count
    }

    /// The token ranges between commas outside parentheses from `start` to `end` (a SELECT
    /// list, a GROUP BY or ORDER BY clause); empty parts left out.
    static func topLevelParts(of tokens: [Token], from start: Int, to end: Int) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var depth = 0
        var partStart = start
        for index in start..<max(start, end) {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            if depth == 0, token.kind == .symbol, token.text == "," {
                if index > partStart { parts.append(partStart..<index) }
                partStart = index + 1
            }
        }
        if end > partStart { parts.append(partStart..<end) }
        return parts
    }

    /// The value of a number literal that starts at `index` (`200`, `19.99`) and the index of
    /// its last token; nil when no number starts there.
    static func number(startingAt index: Int, in tokens: [Token]) -> (value: Double, last: Int)? {
        guard tokens.indices.contains(index), tokens[index].kind == .word, tokens[index].text.allSatisfy(isDigit)
        else { return nil }
        if index + 2 < tokens.count, tokens[index + 1].text == ".", tokens[index + 2].kind == .word,
           tokens[index + 2].text.allSatisfy(isDigit), tokens[index + 1].range.upperBound == tokens[index + 2].range.lowerBound,
           let value = Double(tokens[index].text + "." + tokens[index + 2].text) {
            return (value, index + 2)
        }
        return Double(tokens[index].text).map { ($0, index) }
    }

    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    /// The index of the first `keyword` outside parentheses, or nil.
    static func topLevelIndex(of keyword: String, in tokens: [Token]) -> Int? {
        var depth = 0
        for (index, token) in tokens.enumerated() {
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            if depth == 0, token.isKeyword(keyword) { return index }
        }
        return nil
    }

    private static func closingQuote(of character: Character) -> Character? {
        switch character {
        case "\"": "\""
        case "`": "`"
        case "[": "]"
        default: nil
        }
    }

    /// The index after the closing `quote` of a quoted run that opens at `start` (a doubled
    /// quote inside does not close it), or the end of the text.
    private static func end(of quote: Character, in sql: String, after start: String.Index) -> String.Index {
        var index = sql.index(after: start)
        while index < sql.endIndex {
            if sql[index] == quote {
                let next = sql.index(after: index)
                if next < sql.endIndex, sql[next] == quote, quote != "]" {
                    index = sql.index(after: next)
                    continue
                }
                return next
            }
            index = sql.index(after: index)
        }
        return sql.endIndex
    }
}
