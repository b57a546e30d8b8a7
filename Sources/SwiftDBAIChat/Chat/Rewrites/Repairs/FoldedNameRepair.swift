import SwiftDBAI

/// Repairs a name the model wrote in another naming style than the schema's: `joined_on` for
/// the column `joinedOn`, `membership_pause` for the table `MembershipPause`, `orders` for
/// `Order` (small models carry the style of names they have seen elsewhere into the schema).
///
/// Applied only to SQLite's "no such table: T" and unqualified "no such column: C" errors, when
/// exactly one name matches once both are folded: lower-cased, letters and digits only, a
/// plural ending removed (`NameWords.stem`). A table: one table of the schema; every mention of
/// T (as a table or a qualifier) becomes it. A column: one column among the statement's tables;
/// every bare C becomes it. A qualified `A.C` is ``NearNameRepair``'s. The repaired statement
/// goes through the classifier and policy like any other.
struct FoldedNameRepair: SQLRewriteRule {
    let name = "folded_name"
    let kind = SQLRewriteKind.repair

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        guard let failure = context.failure else { return nil }
        let schema = context.schema
        if let table = failure.missingBareTable {
            return Self.repairedTable(table, in: statement, schema: schema)
        }
        if let column = failure.missingBareColumn {
            return Self.repairedColumn(column, in: statement, schema: schema)
        }
        return nil
    }

    /// Every mention of `missing` as a table (`FROM t`, `JOIN t`, `FROM a, t`) or a qualifier
    /// (`t.c`); an alias of the same spelling (`count(*) AS t`, `ORDER BY t`) keeps its name.
    private static func repairedTable(_ missing: String, in statement: ParsedStatement, schema: DatabaseSchema) -> String? {
        let wanted = folded(missing)
        let matches = schema.tables.filter { folded($0.name) == wanted }
        guard !wanted.isEmpty, matches.count == 1 else { return nil }
        let (sql, tokens) = (statement.sql, statement.codeTokens)
        let mentions = tokens.indices.filter { index in
            guard tokens[index].names(missing), !(index > 0 && tokens[index - 1].text == ".") else { return false }
            return (index + 1 < tokens.count && tokens[index + 1].text == ".") || isTablePosition(index, in: tokens)
        }
        return renamed(mentions, in: tokens, of: sql, to: matches[0].name)
    }

    /// Whether the word at `index` names a table: right after FROM, JOIN, UPDATE or INTO, or
    /// after a comma of a FROM list.
    private static func isTablePosition(_ index: Int, in tokens: [SQLTokens.Token]) -> Bool {
        guard index > 0 else { return false }
        let previous = tokens[index - 1].text.uppercased()
        if ["FROM", "JOIN", "UPDATE", "INTO"].contains(previous) { return true }
        guard previous == "," else { return false }
        var depth = 0
        for earlier in tokens[..<(index - 1)].reversed() {
            switch earlier.text {
            case ")": depth += 1
            case "(": if depth == 0 { return false } else { depth -= 1 }
            default:
                guard depth == 0, earlier.kind == .word else { continue }
                let word = earlier.text.uppercased()
                if word == "FROM" { return true }
                if ["SELECT", "WHERE", "ON", "USING", "GROUP", "ORDER", "HAVING", "LIMIT", "SET", "VALUES", "BY"].contains(word) {
                    return false
                }
            }
        }
        return false
    }

    /// Every bare mention of `missing`, when one column of the statement's tables folds alike.
    private static func repairedColumn(_ missing: String, in statement: ParsedStatement, schema: DatabaseSchema) -> String? {
        let (sql, tokens) = (statement.sql, statement.codeTokens)
        let tables = Set(statement.references.map { SQLIdentifier.foldCase($0.table) })
        let wanted = folded(missing)
        let matches = tables.sorted().compactMap { schema.table(named: $0) }.flatMap { table in
            table.columns.filter { $0.visibility != .hidden && folded($0.name) == wanted }.map(\.name)
        }
        guard !wanted.isEmpty, matches.count == 1 else { return nil }
        return renamed(SQLTokens.bareOccurrences(of: missing, in: tokens), in: tokens, of: sql, to: matches[0])
    }

    private static func renamed(_ indices: [Int], in tokens: [SQLTokens.Token], of sql: String, to name: String) -> String? {
        let edits = indices.map { SQLTokens.Edit(range: tokens[$0].range, text: SQLIdentifier.quotedIfNeeded(name)) }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// Lower-cased letters and digits, without a plural ending: `membership_pauses`,
    /// `MembershipPause` and `membershipPause` fold alike.
    static func folded(_ name: String) -> String {
        String(NearNameRepair.folded(NameWords.stem(name)))
    }
}
