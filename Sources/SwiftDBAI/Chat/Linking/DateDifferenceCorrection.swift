/// Makes a difference of two dates count days: dates stored as ISO text (`'2024-05-01'`)
/// subtract as numbers in SQLite, which reads only their leading year, so `returned_on -
/// loaned_on` is 0 for nearly every row. `a - b`, where both are columns holding ISO dates,
/// becomes `julianday(a) - julianday(b)`: the days between them, with fractions for times.
///
/// Each operand is wrapped on its own, so the precedence of the expression around it stays as
/// written. Only statements that read are changed. The rewritten statement goes through the classifier and policy like any other.
enum DateDifferenceCorrection {
    static func rewritten(_ sql: String, schema: DatabaseSchema, profiles: [ColumnProfile]) -> String? {
        let dated = profiles.filter(\.holdsISODates)
        guard !dated.isEmpty else { return nil }
        let tokens = SQLTokens(sql).tokens
        guard SQLTokens.isQuery(tokens) else { return nil }
        let references = TableReference.all(in: tokens, schema: schema)
        var edits: [SQLTokens.Edit] = []
        for (index, token) in tokens.enumerated() where token.kind == .symbol && token.text == "-" {
            guard index >= 1, index + 1 < tokens.count,
                  let left = SQLTokens.columnReference(endingAt: index - 1, in: tokens),
                  let right = SQLTokens.columnReference(startingAt: index + 1, in: tokens),
                  holdsDates(left, tokens: tokens, references: references, schema: schema, dated: dated),
                  holdsDates(right, tokens: tokens, references: references, schema: schema, dated: dated),
                  !edits.contains(where: { $0.range.overlaps(span(of: left, in: tokens)) })
            else { continue }
            for operand in [left, right] {
                let range = span(of: operand, in: tokens)
                edits.append(SQLTokens.Edit(range: range, text: "julianday(\(sql[range]))"))
            }
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    private typealias Operand = SQLTokens.ColumnReference

    private static func span(of operand: Operand, in tokens: [SQLTokens.Token]) -> Range<String.Index> {
        tokens[operand.qualifier ?? operand.name].range.lowerBound..<tokens[operand.name].range.upperBound
    }

    /// True when the operand names a column that holds ISO dates.
    private static func holdsDates(
        _ operand: Operand, tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema,
        dated: [ColumnProfile]
    ) -> Bool {
        let column = tokens[operand.name].text
        guard let owner = TableReference.owner(
            ofColumn: column, qualifier: operand.qualifier.map { tokens[$0].text }, among: references, schema: schema)
        else { return false }
        return dated.contains { SQLIdentifier.same($0.table, owner.name) && SQLIdentifier.same($0.column, column) }
    }
}
