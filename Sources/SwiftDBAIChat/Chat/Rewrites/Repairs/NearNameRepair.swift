import SwiftDBAI

/// Repairs a column name the model misspelt or guessed from the question's words: `T2.referrerId`
/// where `T2` is `Member`, whose column is `referredById`; `o.orderDate` for `order_date` is
/// found by the same rule.
///
/// Applied only to SQLite's "no such column: A.C" error when A is a table or alias of the
/// statement, no table of the statement has a column C (a wrong qualifier is
/// ``ColumnQualifierRepair``'s), and exactly one column of A's table is nearest to C, compared
/// without case, underscores or spaces: one edit apart for names of five to seven letters;
/// for longer ones up to three, when the two names share their first half (`createdAt` is
/// never taken for `updatedAt`). The next nearest must be farther. Every `A.C` becomes
/// `A.<column>`. The repaired statement goes through the classifier and policy like any other.
struct NearNameRepair: SQLRewriteRule {
    let name = "near_name"
    let kind = SQLRewriteKind.repair

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        guard let failure = context.failure else { return nil }
        let (sql, schema, tokens, references) = (statement.sql, context.schema, statement.codeTokens, statement.references)
        guard let (qualifier, column) = failure.missingQualifiedColumn else { return nil }
        let tables = references.filter { SQLIdentifier.same($0.alias, qualifier) }.map(\.table)
        guard Set(tables.map(SQLIdentifier.foldCase)).count == 1, let table = schema.table(named: tables[0]),
              !references.contains(where: { schema.table(named: $0.table)?.column(named: column) != nil })
        else { return nil }
        let wanted = Self.folded(column)
        guard wanted.count >= 5 else { return nil }
        let ranked = table.columns.filter { $0.visibility != .hidden }
            .map { (name: $0.name, distance: Self.editDistance(wanted, Self.folded($0.name))) }
            .sorted { $0.distance < $1.distance }
        guard let best = ranked.first, Self.isNear(wanted, Self.folded(best.name), distance: best.distance),
              ranked.dropFirst().first.map({ $0.distance > best.distance }) ?? true
        else { return nil }
        let edits = SQLTokens.occurrences(of: qualifier, column, in: tokens).map { index in
            SQLTokens.Edit(range: tokens[index + 2].range, text: SQLIdentifier.quotedIfNeeded(best.name))
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    private static func isNear(_ wanted: [Character], _ candidate: [Character], distance: Int) -> Bool {
        if wanted.count < 8 { return distance <= 1 }
        let shared = zip(wanted, candidate).prefix { $0 == $1 }.count
        return distance <= 3 && shared * 2 >= min(wanted.count, candidate.count)
    }

    /// Lower-cased letters and digits only: `referred_by_id` and `ReferredById` fold alike.
    static func folded(_ name: String) -> [Character] {
        Array(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// The Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
