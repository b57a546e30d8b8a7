import Foundation
import SwiftDBAI

/// Counts each thing once where the question counts things, not rows: "How many different
/// clients has each trainer had?" written as `COUNT(s.memberId)` counts sessions, and "How many
/// customers have left at least one review?" written as `SELECT COUNT(*) FROM customers c JOIN
/// reviews r …` counts reviews.
///
/// Applied to one SELECT (no subquery, no compound) whose list has one `COUNT` without DISTINCT:
/// - "how many different (distinct, unique) …": `COUNT(column)` becomes `COUNT(DISTINCT column)`;
/// - and, over a join, `COUNT(*)` becomes `COUNT(DISTINCT alias.key)` of the table the question
///   counts (named in the words after "how many", joined once, with a one-column primary key);
/// - "how many … at least one …" over a join: the same for `COUNT(*)`, and `COUNT(column)` gets
///   DISTINCT when the column is that table's key or a foreign key to it.
///
/// Only statements that read are changed. The rewritten statement goes through the classifier
/// and policy like any other.
struct CountDistinctCorrection: SQLRewriteRule {
    let name = "count_distinct"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "The question counts different things, each once; the statement counts rows, one per match of the join."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let question = context.question
        let schema = context.schema
        guard let asked = Self.countedThing(in: question) else { return nil }
        let tokens = statement.codeTokens
        guard tokens.count > 3, tokens[0].isKeyword("select"), tokens.filter({ $0.isKeyword("select") }).count == 1,
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens),
              ["union", "except", "intersect"].allSatisfy({ SQLTokens.topLevelIndex(of: $0, in: tokens) == nil })
        else { return nil }
        let counts = SQLTokens.topLevelParts(of: tokens, from: 1, to: from).flatMap { item in
            item.filter { tokens[$0].isKeyword("count") && $0 + 1 < item.upperBound && tokens[$0 + 1].text == "(" }
        }
        guard counts.count == 1, let close = SQLTokens.closingParenthesis(of: counts[0] + 1, in: tokens) else { return nil }
        let argument = (counts[0] + 2)..<close
        guard !argument.isEmpty, !tokens[argument.lowerBound].isKeyword("distinct") else { return nil }
        let references = statement.references
        let isJoin = references.count > 1
        let counted = Self.countedTable(asked.words, among: references, schema: schema)

        if argument.count == 1, tokens[argument.lowerBound].text == "*" {
            guard isJoin, let counted, let key = Self.primaryKey(of: counted.table, in: schema) else { return nil }
            let replacement = "DISTINCT \(SQLIdentifier.quotedIfNeeded(counted.alias)).\(SQLIdentifier.quotedIfNeeded(key))"
            return SQLTokens.applying([SQLTokens.Edit(range: tokens[argument.lowerBound].range, text: replacement)], to: sql)
        }
        guard let reference = SQLTokens.columnReference(startingAt: argument.lowerBound, in: tokens),
              reference.name == argument.upperBound - 1
        else { return nil }
        if !asked.isDifferent {
            guard isJoin, let counted,
                  let owner = TableReference.owner(
                      ofColumn: tokens[reference.name].text, qualifier: reference.qualifier.map { tokens[$0].text },
                      among: references, schema: schema),
                  Self.identifies(counted.table, column: tokens[reference.name].text, of: owner, in: schema)
            else { return nil }
        }
        let start = tokens[argument.lowerBound].range.lowerBound
        return SQLTokens.applying([SQLTokens.Edit(range: start..<start, text: "DISTINCT ")], to: sql)
    }

    /// The words after "how many" (up to four, after "different", "distinct" or "unique") and
    /// whether the question counts different things; nil unless it says "how many" with
    /// "different", "distinct", "unique" or "at least one".
    static func countedThing(in question: String) -> (words: [String], isDifferent: Bool)? {
        let words = NameWords.ofText(question)
        guard let start = NameWords.positions(of: ["how", "many"], in: words).first else { return nil }
        var rest = Array(words[(start + 2)...])
        let isDifferent = rest.first.map { ["different", "distinct", "unique"].contains($0) } ?? false
        if isDifferent { rest.removeFirst() }
        let atLeastOne = !NameWords.positions(of: ["at", "least", "one"], in: words).isEmpty
            || !NameWords.positions(of: ["at", "least", "1"], in: words).isEmpty
        guard isDifferent || atLeastOne else { return nil }
        return (Array(rest.prefix(4)), isDifferent)
    }

    /// The table of the statement the question counts: the first whose name is among `words`,
    /// when the statement names it once.
    private static func countedTable(_ words: [String], among references: [TableReference], schema: DatabaseSchema) -> TableReference? {
        let named = references.compactMap { reference -> (reference: TableReference, position: Int)? in
            let position = NameWords.positions(of: NameWords.ofIdentifier(reference.table), in: words).first
            return position.map { (reference, $0) }
        }
        guard let first = named.min(by: { $0.position < $1.position })?.reference,
              references.filter({ SQLIdentifier.same($0.table, first.table) }).count == 1
        else { return nil }
        return first
    }

    private static func primaryKey(of table: String, in schema: DatabaseSchema) -> String? {
        guard let key = schema.table(named: table)?.primaryKey, key.count == 1 else { return nil }
        return key[0]
    }

    /// True when `column` of `owner` is the primary key of `table` or a foreign key to it.
    private static func identifies(_ table: String, column: String, of owner: TableSchema, in schema: DatabaseSchema) -> Bool {
        if SQLIdentifier.same(owner.name, table), primaryKey(of: table, in: schema).map({ SQLIdentifier.same($0, column) }) == true {
            return true
        }
        return owner.foreignKeys.contains { key in
            key.columns.count == 1 && SQLIdentifier.same(key.columns[0], column) && SQLIdentifier.same(key.referencedTable, table)
        }
    }
}
