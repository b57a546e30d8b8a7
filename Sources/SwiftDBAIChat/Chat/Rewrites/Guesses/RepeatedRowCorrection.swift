import SwiftDBAI

/// Lists each row once when a join to a child table repeats it: "Which performers have played
/// in New Orleans?" written as `SELECT p.name FROM performers p JOIN event_performers ep ON
/// ep.performer_id = p.id JOIN events e … WHERE …` names a performer once per show. The
/// statement becomes `SELECT DISTINCT`.
///
/// Applied to one plain SELECT (no DISTINCT, GROUP BY, aggregate, `*` or LIMIT) whose result
/// columns all belong to one table of its FROM, when another table of that FROM has a foreign
/// key to it (each of its rows can then match many). Only statements that read are changed.
/// The rewritten statement goes through the classifier and policy like any other.
struct RepeatedRowCorrection: SQLRewriteRule {
    let name = "repeated_row"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "The join lists each row once per matching row of the joined table, so rows repeat."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let schema = context.schema
        let tokens = statement.codeTokens
        guard tokens.count > 3, tokens[0].isKeyword("select"), !tokens[1].isKeyword("distinct"), !tokens[1].isKeyword("all"),
              SQLTokens.topLevelIndex(of: "group", in: tokens) == nil, SQLTokens.topLevelIndex(of: "limit", in: tokens) == nil,
              SQLTokens.topLevelIndex(of: "union", in: tokens) == nil, SQLTokens.topLevelIndex(of: "except", in: tokens) == nil,
              SQLTokens.topLevelIndex(of: "intersect", in: tokens) == nil,
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens)
        else { return nil }
        let fromEnd = SQLTokens.topLevelIndex(ofAny: ["where", "order", "having", "window"], in: tokens, from: from + 1)
        let references = TableReference.all(in: Array(tokens[..<fromEnd]), schema: schema)
        guard references.count >= 2,
              let owner = Self.soleOwner(ofColumnsIn: Array(tokens[1..<from]), references: references, schema: schema)
        else { return nil }
        let repeats = references.contains { reference in
            reference.alias != owner.alias && (schema.table(named: reference.table)?.foreignKeys.contains {
                SQLIdentifier.same($0.referencedTable, owner.table)
            } ?? false)
        }
        guard repeats else { return nil }
        let afterSelect = tokens[0].range.upperBound
        return sql.replacingCharacters(in: afterSelect..<afterSelect, with: " DISTINCT")
    }

    /// The one reference whose table owns every result column, when each result column is a
    /// plain column reference (`name`, `p.name`); nil otherwise.
    private static func soleOwner(
        ofColumnsIn list: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema
    ) -> TableReference? {
        var owners: Set<String> = []
        var index = 0
        while index < list.count {
            guard let column = SQLTokens.columnReference(startingAt: index, in: list) else { return nil }
            let name = list[column.name].text
            if let qualifier = column.qualifier {
                guard let reference = references.first(where: { SQLIdentifier.same($0.alias, list[qualifier].text) }),
                      schema.table(named: reference.table)?.column(named: name) != nil
                else { return nil }
                owners.insert(reference.alias)
            } else {
                let holders = references.filter { schema.table(named: $0.table)?.column(named: name) != nil }
                guard holders.count == 1 else { return nil }
                owners.insert(holders[0].alias)
            }
            index = column.name + 1
            if index < list.count, list[index].isKeyword("as") { index += 2 }
            guard index == list.count || list[index].text == "," else { return nil }
            index += 1
        }
        guard owners.count == 1, let alias = owners.first else { return nil }
        return references.first { $0.alias == alias }
    }
}
