import SwiftDBAI

/// Checks the text values a statement compares a column with against the values the column
/// holds, when it holds few (a status, a category): a small model writes `status = 'Ready for
/// Pickup'` where the data says `'Ready'`, or `'rock'` where it says `'Rock'`, and the statement
/// runs and answers wrongly (a count of 0, no rows).
///
/// Reads `column = 'text'`, `column != 'text'`, `column <> 'text'` and `column IN ('a', 'b')`,
/// with the column bare or qualified by a table or alias of the statement, in statements that only
/// read; LIKE patterns, other comparisons and writes are left alone.
enum LiteralCheck {
    /// A compared value that the column does not hold.
    struct Finding: Sendable, Hashable {
        var table: String
        var column: String
        var value: String
        /// The column's values.
        var storedValues: [String]
        /// Where the literal is in the statement, quotes included.
        var range: Range<String.Index>
    }

    /// The compared values that their column does not hold.
    static func findings(in statement: ParsedStatement, schema: DatabaseSchema, profiles: [ColumnProfile]) -> [Finding] {
        let categorical = profiles.filter { $0.categories != nil }
        guard !categorical.isEmpty, statement.isQuery else { return [] }
        let (tokens, references) = (statement.tokens, statement.referencesAmongAllTokens)
        var findings: [Finding] = []
        for (index, token) in tokens.enumerated() where token.kind == .string {
            guard let columnIndex = comparedColumn(before: index, in: tokens),
                  let profile = profile(ofColumnAt: columnIndex, in: tokens, references: references, schema: schema, profiles: categorical),
                  let stored = profile.categories, !stored.contains(token.text)
            else { continue }
            findings.append(Finding(table: profile.table, column: profile.column, value: token.text, storedValues: stored, range: token.range))
        }
        return findings
    }

    /// What the model is told about the findings, one line each.
    static func message(for findings: [Finding]) -> String {
        var lines: [String] = []
        for finding in findings {
            let line = "\(SQLTokens.literal(finding.value)) is not a value of \(finding.table).\(finding.column); its values are "
                + finding.storedValues.map(SQLTokens.literal).joined(separator: ", ") + "."
            if !lines.contains(line) { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }

    /// The index of the column name a string literal at `index` is compared with, or nil.
    private static func comparedColumn(before index: Int, in tokens: [SQLTokens.Token]) -> Int? {
        var position = index - 1
        // Inside an IN list: walk back over the other literals and commas to the parenthesis.
        while position >= 0, tokens[position].text == "," || tokens[position].kind == .string {
            position -= 1
        }
        if position >= 1, tokens[position].text == "(", tokens[position - 1].isKeyword("in") {
            position -= 2
            if position >= 0, tokens[position].isKeyword("not") { position -= 1 }
            return position >= 0 && SQLTokens.isName(tokens[position]) ? position : nil
        }
        guard position == index - 1, position >= 0 else { return nil }
        // `=`, `==`, `!=`, `<>`: one or two symbol characters.
        let operatorText: String
        if position >= 1, tokens[position - 1].kind == .symbol, tokens[position - 1].range.upperBound == tokens[position].range.lowerBound {
            operatorText = tokens[position - 1].text + tokens[position].text
            position -= 2
        } else {
            operatorText = tokens[position].text
            position -= 1
        }
        guard ["=", "==", "!=", "<>"].contains(operatorText), position >= 0, SQLTokens.isName(tokens[position]) else { return nil }
        return position
    }

    /// The profile of the column named at `index`, through ``TableReference/owner(ofColumn:qualifier:among:schema:)``.
    private static func profile(
        ofColumnAt index: Int, in tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema,
        profiles: [ColumnProfile]
    ) -> ColumnProfile? {
        guard let reference = SQLTokens.columnReference(endingAt: index, in: tokens) else { return nil }
        let column = tokens[index].text
        guard let owner = TableReference.owner(
            ofColumn: column, qualifier: reference.qualifier.map { tokens[$0].text }, among: references, schema: schema)
        else { return nil }
        return profiles.first { SQLIdentifier.same($0.table, owner.name) && SQLIdentifier.same($0.column, column) }
    }
}
