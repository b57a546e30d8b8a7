import SwiftDBAI

/// A compared text value replaced by the one stored value it most likely means: the same but for
/// case or spaces (`'rock'` → `'Rock'`), or the one stored value that holds it as whole words
/// (`'Ohio City'` → `'Kettlebird Ohio City'`). A guess: `'Virginia'` is not `'West Virginia'`,
/// and a value the column does not hold may simply not be there.
///
/// Reads the column profiles (columns of at most a few dozen values); the findings are
/// ``LiteralCheck``'s, which also tell the model, as a doubt, which values the column holds.
struct StoredValueGuess: SQLRewriteRule {
    let name = "stored_value"
    let kind = SQLRewriteKind.guess

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let edits = LiteralCheck.findings(in: statement, schema: context.schema, profiles: context.profiles).compactMap { finding in
            (finding.caseInsensitiveMatch ?? finding.containingMatch).map { SQLTokens.Edit(range: finding.range, text: SQLTokens.literal($0)) }
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: statement.sql)
    }
}
