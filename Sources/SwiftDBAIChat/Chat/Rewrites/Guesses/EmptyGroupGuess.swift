import Foundation
import SwiftDBAI

/// Sees the groups with nothing in them that a question asks for and a statement drops: "How
/// many members does each plan have? Include plans nobody is on." written as `SELECT p.name,
/// COUNT(*) FROM MembershipPlan p JOIN Member m ON m.planId = p.id GROUP BY p.name` drops the
/// plans with no member; its statement is `… FROM MembershipPlan p LEFT JOIN Member m ON
/// m.planId = p.id …` with `COUNT(m.id)`, which counts them as 0.
///
/// It reads a question that says "include", "including" or "even" and, in the same sentence,
/// "no", "none", "nobody", "never", "without" or "zero"; to one SELECT of two tables inner-joined
/// on one foreign-key equality, grouped by columns of the referred table only, with one COUNT
/// of `*` or of a column of the referring table, and no WHERE or HAVING that names the
/// referring table (it would drop the empty groups again). When the referring table is written
/// first, the two trade places. A sentence that also says "only", "exclude", "except", "skip" or
/// "omit" does not count. A guess: when its statement returns other rows, the model is told the
/// question includes the groups with none; it is never applied.
struct EmptyGroupGuess: SQLRewriteRule {
    let name = "empty_group"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "The question includes the groups that have none, which an inner join leaves out: they should count 0."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let question = context.question
        let schema = context.schema
        guard Self.asksForEmptyGroups(question) else { return nil }
        let tokens = statement.codeTokens
        guard tokens.count > 3, statement.isSingleSelect,
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens),
              let group = SQLTokens.topLevelIndex(of: "group", in: tokens), group + 1 < tokens.count, tokens[group + 1].isKeyword("by")
        else { return nil }
        let references = statement.references
        guard references.count == 2, !references[1].isLeftJoined, references[0].end == references[1].start,
              tokens[references[1].start].isKeyword("join") || tokens[references[1].start].isKeyword("inner"),
              let (child, parent, childColumn) = Self.join(references, in: tokens, schema: schema),
              let counted = Self.countArgument(in: tokens, from: 1, to: from),
              !Self.names(child, in: tokens, from: references[1].clauseEnd(in: tokens), to: group, schema: schema),
              !Self.names(child, in: tokens, from: group, to: tokens.count, schema: schema)
        else { return nil }
        var edits: [SQLTokens.Edit] = []
        let childKeys = schema.table(named: child.table)?.primaryKey ?? []
        let childKey = childKeys.count == 1 ? childKeys[0] : nil
        let countedColumn = "\(SQLIdentifier.quotedIfNeeded(child.alias)).\(SQLIdentifier.quotedIfNeeded(childKey ?? childColumn))"
        if counted.count == 1, tokens[counted.lowerBound].text == "*" {
            edits.append(SQLTokens.Edit(range: tokens[counted.lowerBound].range, text: countedColumn))
        } else {
            guard let reference = SQLTokens.columnReference(startingAt: counted.lowerBound, in: tokens),
                  reference.name == counted.upperBound - 1,
                  TableReference.owner(ofColumn: tokens[reference.name].text, qualifier: reference.qualifier.map { tokens[$0].text },
                                       among: references, schema: schema).map({ SQLIdentifier.same($0.name, child.table) }) == true
            else { return nil }
        }
        let first = references[0], second = references[1]
        let join = (second.start..<second.end).first { tokens[$0].isKeyword("join") } ?? second.start
        let firstText = Self.text(of: (first.start + 1)..<first.end, in: tokens, sql: sql)
        let secondText = Self.text(of: (join + 1)..<second.end, in: tokens, sql: sql)
        let range = tokens[first.start + 1].range.lowerBound..<tokens[second.end - 1].range.upperBound
        let reordered = SQLIdentifier.same(first.alias, parent.alias) ? "\(firstText) LEFT JOIN \(secondText)" : "\(secondText) LEFT JOIN \(firstText)"
        edits.append(SQLTokens.Edit(range: range, text: reordered))
        return SQLTokens.applying(edits, to: sql)
    }

    /// True when a sentence of the question asks to include what has none.
    static func asksForEmptyGroups(_ question: String) -> Bool {
        question.lowercased().split(whereSeparator: { ".?!;".contains($0) }).contains { sentence in
            let words = Set(sentence.split { !($0.isLetter || $0.isNumber) }.map(String.init))
            return !words.isDisjoint(with: ["include", "including", "even"])
                && !words.isDisjoint(with: ["no", "none", "nobody", "never", "without", "zero"])
                && words.isDisjoint(with: ["only", "exclude", "excluding", "except", "skip", "omit"])
        }
    }

    /// The referring (child) and referred (parent) table of a join whose condition is one
    /// equality along a foreign key, and the child's key column.
    private static func join(
        _ references: [TableReference], in tokens: [SQLTokens.Token], schema: DatabaseSchema
    ) -> (child: TableReference, parent: TableReference, column: String)? {
        let on = references[1].end
        guard on < tokens.count, tokens[on].isKeyword("on"), references[1].clauseEnd(in: tokens) == on + 8,
              let left = SQLTokens.columnReference(startingAt: on + 1, in: tokens), left.name == on + 3,
              tokens[on + 4].text == "=",
              let right = SQLTokens.columnReference(startingAt: on + 5, in: tokens), right.name == on + 7,
              let leftQualifier = left.qualifier, let rightQualifier = right.qualifier
        else { return nil }
        let sides = [(tokens[leftQualifier].text, tokens[left.name].text), (tokens[rightQualifier].text, tokens[right.name].text)]
        for (childSide, parentSide) in [(0, 1), (1, 0)] {
            guard let child = references.first(where: { SQLIdentifier.same($0.alias, sides[childSide].0) }),
                  let parent = references.first(where: { SQLIdentifier.same($0.alias, sides[parentSide].0) }),
                  !SQLIdentifier.same(child.table, parent.table),
                  let childTable = schema.table(named: child.table),
                  childTable.foreignKeys.contains(where: { key in
                      key.columns.count == 1 && SQLIdentifier.same(key.columns[0], sides[childSide].1)
                          && SQLIdentifier.same(key.referencedTable, parent.table)
                  })
            else { continue }
            return (child, parent, sides[childSide].1)
        }
        return nil
    }

    /// The tokens inside the one COUNT(…) of the range, or nil when there is none or more, or
    /// it counts DISTINCT.
    private static func countArgument(in tokens: [SQLTokens.Token], from start: Int, to end: Int) -> Range<Int>? {
        let counts = (start..<end).filter { tokens[$0].isKeyword("count") && $0 + 1 < end && tokens[$0 + 1].text == "(" }
        guard counts.count == 1, let close = SQLTokens.closingParenthesis(of: counts[0] + 1, in: tokens),
              close > counts[0] + 2, !tokens[counts[0] + 2].isKeyword("distinct")
        else { return nil }
        return (counts[0] + 2)..<close
    }

    /// True when the tokens of the range name the table: by its alias, or by a bare column only
    /// it has among the statement's two tables.
    private static func names(_ table: TableReference, in tokens: [SQLTokens.Token], from start: Int, to end: Int, schema: DatabaseSchema) -> Bool {
        guard start < end, let child = schema.table(named: table.table) else { return false }
        return (start..<end).contains { index in
            tokens[index].names(table.alias) || tokens[index].names(table.table)
                || (SQLTokens.isName(tokens[index]) && child.column(named: tokens[index].text) != nil
                    && (index == 0 || tokens[index - 1].text != "."))
        }
    }

    private static func text(of range: Range<Int>, in tokens: [SQLTokens.Token], sql: String) -> String {
        String(sql[tokens[range.lowerBound].range.lowerBound..<tokens[range.upperBound - 1].range.upperBound])
    }
}
