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
enum FoldedNameRepair {
    static func repair(_ sql: String, error: String, schema: DatabaseSchema) -> String? {
        if let table = missingName(after: "no such table: ", in: error) {
            return repairedTable(table, in: sql, schema: schema)
        }
        if let column = missingName(after: "no such column: ", in: error) {
            return repairedColumn(column, in: sql, schema: schema)
        }
        return nil
    }

    private static func repairedTable(_ missing: String, in sql: String, schema: DatabaseSchema) -> String? {
        let wanted = folded(missing)
        let matches = schema.tables.filter { folded($0.name) == wanted }
        guard !wanted.isEmpty, matches.count == 1 else { return nil }
        let tokens = SQLTokens(sql).tokens
        let edits = tokens.indices.filter { index in
            tokens[index].names(missing) && !(index > 0 && tokens[index - 1].text == ".")
        }.map { SQLTokens.Edit(range: tokens[$0].range, text: SQLIdentifier.quotedIfNeeded(matches[0].name)) }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    private static func repairedColumn(_ missing: String, in sql: String, schema: DatabaseSchema) -> String? {
        let tokens = SQLTokens(sql).tokens
        let tables = Set(TableReference.all(in: tokens, schema: schema).map { SQLIdentifier.foldCase($0.table) })
        let wanted = folded(missing)
        let matches = tables.sorted().compactMap { schema.table(named: $0) }.flatMap { table in
            table.columns.filter { $0.visibility != .hidden && folded($0.name) == wanted }.map(\.name)
        }
        guard !wanted.isEmpty, matches.count == 1 else { return nil }
        let edits = tokens.indices.filter { index in
            tokens[index].names(missing) && !(index > 0 && tokens[index - 1].text == ".")
                && !(index + 1 < tokens.count && [".", "("].contains(tokens[index + 1].text))
        }.map { SQLTokens.Edit(range: tokens[$0].range, text: SQLIdentifier.quotedIfNeeded(matches[0])) }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// The one-part name SQLite reports after `prefix`; nil for a qualified one (`A.C`).
    private static func missingName(after prefix: String, in error: String) -> String? {
        guard let range = error.range(of: prefix) else { return nil }
        let words = SQLTokens(String(error[range.upperBound...])).tokens.prefix(2)
        guard let first = words.first, first.kind != .symbol, !(words.count == 2 && words[words.startIndex + 1].text == ".")
        else { return nil }
        return first.text
    }

    /// Lower-cased letters and digits, without a plural ending: `membership_pauses`,
    /// `MembershipPause` and `membershipPause` fold alike.
    static func folded(_ name: String) -> String {
        String(NearNameRepair.folded(NameWords.stem(name)))
    }
}
