import SwiftDBAI

/// Compares timestamps with a plain date by their day: in a column that holds
/// `2025-06-30 14:05:00`, `created_at BETWEEN '2025-01-01' AND '2025-06-30'` leaves out all of
/// June 30 (the text `'2025-06-30 14:05:00'` sorts after `'2025-06-30'`), and
/// `created_at = '2025-06-30'` matches nothing. The column becomes `date(created_at)` where it
/// is compared with a date alone by `=`, `<=`, `>` or `BETWEEN`; `<` and `>=` already mean
/// what they say and stay.
///
/// Applied to columns whose stored values carry a time of day (the column profiles say so).
/// Only statements that read are changed. The rewritten statement goes through the classifier
/// and policy like any other.
struct DateBoundCorrection: SQLRewriteRule {
    let name = "date_bound"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "A column it compares with a date alone holds times of day too: compared as text, the last day is cut off or "
            + "taken whole; compare date(column) to mean whole days."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let schema = context.schema
        let profiles = context.profiles
        let timed = profiles.filter(\.holdsTimes)
        guard !timed.isEmpty else { return nil }
        let tokens = statement.tokens
        let references = statement.referencesAmongAllTokens
        var edits: [SQLTokens.Edit] = []
        for index in tokens.indices where SQLTokens.isName(tokens[index]) {
            guard let reference = SQLTokens.columnReference(startingAt: index, in: tokens),
                  reference.qualifier == nil || reference.qualifier == index,
                  Self.comparesWithDay(after: reference.name, in: tokens),
                  let owner = TableReference.owner(
                    ofColumn: tokens[reference.name].text, qualifier: reference.qualifier.map { tokens[$0].text },
                    among: references, schema: schema),
                  timed.contains(where: { SQLIdentifier.same($0.table, owner.name) && SQLIdentifier.same($0.column, tokens[reference.name].text) }),
                  index == 0 || tokens[index - 1].text != "."
            else { continue }
            let range = tokens[index].range.lowerBound..<tokens[reference.name].range.upperBound
            edits.append(SQLTokens.Edit(range: range, text: "date(\(sql[range]))"))
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// True when the column at `index` is followed by `=`, `==`, `<=`, `>` or `BETWEEN … AND`
    /// with a date alone (`'2025-06-30'`) as the bound that loses the day's times.
    private static func comparesWithDay(after index: Int, in tokens: [SQLTokens.Token]) -> Bool {
        func isDay(_ position: Int) -> Bool {
            tokens.indices.contains(position) && tokens[position].kind == .string && tokens[position].text.count == 10
                && ColumnProfile.looksLikeISODate(tokens[position].text)
        }
        func symbol(_ position: Int, _ text: String) -> Bool {
            tokens.indices.contains(position) && tokens[position].kind == .symbol && tokens[position].text == text
        }
        let next = index + 1
        guard tokens.indices.contains(next) else { return false }
        if tokens[next].isKeyword("between") {
            return next + 3 < tokens.count && tokens[next + 2].isKeyword("and") && isDay(next + 3)
        }
        if symbol(next, "<"), symbol(next + 1, "="), isDay(next + 2) { return true }
        if symbol(next, "="), symbol(next + 1, "="), isDay(next + 2) { return true }
        if symbol(next, "="), isDay(next + 1) { return true }
        if symbol(next, ">"), isDay(next + 1) { return true }
        return false
    }
}
