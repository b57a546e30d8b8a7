import SwiftDBAI

/// A table named after FROM, JOIN or a comma of a FROM list, as the repairs of model-written
/// SQL see it: its alias (or its own name) and where it sits among the tokens.
struct TableReference: Sendable, Hashable {
    /// The alias the statement uses for the table (the table's own name when it has none).
    var alias: String
    /// The table's name as the schema spells it.
    var table: String
    /// The index of the first token after the reference (after its alias).
    var end: Int
    /// True when the table is brought in by a LEFT (OUTER) JOIN.
    var isLeftJoined: Bool
    /// The index of the first token that brings the table in: FROM, a comma, or the first word
    /// of its join operator (`INNER` of `INNER JOIN`).
    var start: Int

    /// Each table of the statement that the schema knows, in the order written. Subqueries are
    /// included: this is a reading of the text, not a parse.
    static func all(in tokens: [SQLTokens.Token], schema: DatabaseSchema) -> [TableReference] {
        var references: [TableReference] = []
        var index = 0
        while index < tokens.count {
            guard tokens[index].isKeyword("from") || tokens[index].isKeyword("join") else { index += 1; continue }
            var isLeftJoined = tokens[index].isKeyword("join") && Self.isLeftJoin(before: index, in: tokens)
            var start = tokens[index].isKeyword("join") ? Self.operatorStart(before: index, in: tokens) : index
            index += 1
            while index < tokens.count, tokens[index].kind != .symbol {
                var table = tokens[index].text
                index += 1
                if index + 1 < tokens.count, tokens[index].text == ".", tokens[index + 1].kind != .symbol {
                    table = tokens[index + 1].text
                    index += 2
                }
                if index < tokens.count, tokens[index].isKeyword("as") { index += 1 }
                var alias = table
                if index < tokens.count, tokens[index].kind != .symbol,
                   !(tokens[index].kind == .word && clauseWords.contains(SQLIdentifier.foldCase(tokens[index].text))) {
                    alias = tokens[index].text
                    index += 1
                }
                if let known = schema.table(named: table) {
                    references.append(
                        TableReference(alias: alias, table: known.name, end: index, isLeftJoined: isLeftJoined, start: start))
                }
                guard index < tokens.count, tokens[index].text == "," else { break }
                isLeftJoined = false
                start = index
                index += 1
            }
        }
        return references
    }

    /// The table a column reference of the statement belongs to: through its qualifier (an
    /// alias of the statement, else a table's name), else the one table of the statement that
    /// has a column of that name. Nil when unknown or ambiguous.
    static func owner(
        ofColumn column: String, qualifier: String?, among references: [TableReference], schema: DatabaseSchema
    ) -> TableSchema? {
        var tables: [String]
        if let qualifier {
            tables = references.filter { SQLIdentifier.same($0.alias, qualifier) }.map(\.table)
            if tables.isEmpty, let table = schema.table(named: qualifier) { tables = [table.name] }
        } else {
            tables = references.map(\.table).filter { schema.table(named: $0)?.column(named: column) != nil }
        }
        guard Set(tables.map(SQLIdentifier.foldCase)).count == 1, let name = tables.first,
              let table = schema.table(named: name), table.column(named: column) != nil
        else { return nil }
        return table
    }

    /// The index of the token where the reference's part of the FROM clause ends (its ON or
    /// USING condition included): the next join, comma, clause keyword or closing parenthesis at
    /// its level, or the end of the tokens.
    func clauseEnd(in tokens: [SQLTokens.Token]) -> Int {
        var depth = 0
        var index = end
        while index < tokens.count {
            let token = tokens[index]
            if token.text == "(" && token.kind == .symbol {
                depth += 1
            } else if token.text == ")" && token.kind == .symbol {
                if depth == 0 { return index }
                depth -= 1
            } else if depth == 0 {
                if token.kind == .symbol && token.text == "," { return index }
                if token.kind == .word && Self.endWords.contains(SQLIdentifier.foldCase(token.text)) { return index }
            }
            index += 1
        }
        return tokens.count
    }

    /// Words that end a table's alias: they start a condition, a join or a clause.
    private static let clauseWords: Set<String> = [
        "on", "using", "where", "join", "inner", "left", "right", "full", "cross", "natural", "outer", "group",
        "order", "limit", "having", "window", "union", "except", "intersect", "as", "indexed", "not",
    ]

    /// Words that end a FROM item with its condition.
    private static let endWords: Set<String> = [
        "join", "inner", "left", "right", "full", "cross", "natural", "where", "group", "order", "limit", "having",
        "window", "union", "except", "intersect", "returning",
    ]

    /// The index of the first word of the join operator whose JOIN is at `index`.
    private static func operatorStart(before index: Int, in tokens: [SQLTokens.Token]) -> Int {
        let words: Set<String> = ["inner", "left", "right", "full", "outer", "cross", "natural"]
        var start = index
        while start > 0, tokens[start - 1].kind == .word, words.contains(SQLIdentifier.foldCase(tokens[start - 1].text)) {
            start -= 1
        }
        return start
    }

    private static func isLeftJoin(before index: Int, in tokens: [SQLTokens.Token]) -> Bool {
        var previous = index - 1
        if previous >= 0, tokens[previous].isKeyword("outer") { previous -= 1 }
        return previous >= 0 && tokens[previous].isKeyword("left")
    }
}
