import SwiftDBAI

/// Makes a difference of two dates count days: dates stored as ISO text (`'2024-05-01'`)
/// subtract as numbers in SQLite, which reads only their leading year, so `returned_on -
/// loaned_on` is 0 for nearly every row. `a - b`, where both are columns holding ISO dates,
/// becomes `julianday(a) - julianday(b)`: the days between them, with fractions for times.
///
/// Each operand is wrapped on its own, so the precedence of the expression around it stays as
/// written. An equivalence: the difference of two date texts is their years' difference by
/// accident of SQLite's number conversion, never a count anyone meant.
struct DateDifferenceCorrection: SQLRewriteRule {
    let name = "date_difference"
    let kind = SQLRewriteKind.equivalence

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let dated = context.profiles.filter(\.holdsISODates)
        guard !dated.isEmpty else { return nil }
        let (sql, tokens, schema, references) = (statement.sql, statement.codeTokens, context.schema, statement.references)
        var edits: [SQLTokens.Edit] = []
        for (index, token) in tokens.enumerated() where token.kind == .symbol && token.text == "-" {
            guard index >= 1, index + 1 < tokens.count,
                  let left = SQLTokens.columnReference(endingAt: index - 1, in: tokens),
                  let right = SQLTokens.columnReference(startingAt: index + 1, in: tokens),
                  Self.holdsDates(left, tokens: tokens, references: references, schema: schema, dated: dated),
                  Self.holdsDates(right, tokens: tokens, references: references, schema: schema, dated: dated),
                  !edits.contains(where: { $0.range.overlaps(Self.span(of: left, in: tokens)) })
            else { continue }
            for operand in [left, right] {
                let range = Self.span(of: operand, in: tokens)
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
