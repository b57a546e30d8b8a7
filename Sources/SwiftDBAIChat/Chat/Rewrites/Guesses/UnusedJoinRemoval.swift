import SwiftDBAI

/// Removes a join that only repeats rows: small models answer "Which customers live in London?"
/// with `SELECT c.CompanyName FROM Customers c JOIN Orders o ON o.CustomerID = c.CustomerID
/// WHERE c.City = 'London'`, which lists each customer once per order and leaves out those
/// with none, and "How much have paid orders brought in?" with `SUM(o.total_cents)` over
/// orders joined to their items, which counts each order once per item.
///
/// Applied to a plain list (one SELECT, with no DISTINCT, GROUP BY, aggregate or `*`) and to a
/// sum or average (one SELECT whose aggregates are SUM, AVG or TOTAL, with no DISTINCT or
/// COUNT). A table is removed when it is inner-joined on a single foreign-key equality, none of
/// its columns is used outside that condition, the question does not name it (`Orders` in
/// "customers who placed orders" keeps the join), and it is either the referring table (each
/// of the other table's rows can match many of its rows) or, in a sum, the table a NOT NULL
/// foreign key refers to (the join neither repeats nor drops rows, and a table joined through
/// it may then go too). The rewritten statement goes through the classifier and policy like any other.
struct UnusedJoinRemoval: SQLRewriteRule {
    let name = "unused_join"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "It joins a table it uses no column of: that join repeats rows (once per match) or drops those with none."
    }

    /// Each application removes one join; a table joined through a removed one may go next.
    let maxApplications = 8

    /// The statement without its first join that only repeats rows, or nil.
    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, tokens, references, question, schema) = (
            statement.sql, statement.codeTokens, statement.references, context.question, context.schema)
        guard statement.startsWithSelect else { return nil }
        let sums = Self.isSum(tokens)
        guard sums || Self.isPlainList(tokens) else { return nil }
        guard references.count >= 2 else { return nil }
        let questionWords = Set(NameWords.ofText(question))
        for reference in references.dropFirst() where !reference.isLeftJoined && tokens[reference.start].kind == .word {
            let end = reference.clauseEnd(in: tokens)
            guard let join = Self.joinKey(of: reference, end: end, tokens: tokens, references: references, schema: schema),
                  join == .child || (sums && join == .requiredParent),
                  !Self.isUsed(reference, outside: reference.start..<end, tokens: tokens, references: references, schema: schema),
                  !Self.isNamed(reference, in: questionWords, references: references)
            else { continue }
            var result = sql
            let removed = tokens[reference.start].range.lowerBound..<(end < tokens.count ? tokens[end].range.lowerBound : sql.endIndex)
            result.replaceSubrange(removed, with: "")
            return result.trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// One SELECT with no DISTINCT, GROUP BY, aggregate function or `*`.
    private static func isPlainList(_ tokens: [SQLTokens.Token]) -> Bool {
        let refused: Set<String> = [
            "distinct", "group", "count", "sum", "avg", "min", "max", "total", "group_concat", "union", "except",
            "intersect", "exists",
        ]
        let selects = tokens.filter { $0.isKeyword("select") }.count
        return selects == 1 && !tokens.contains { token in
            (token.kind == .word && refused.contains(SQLIdentifier.foldCase(token.text))) || (token.kind == .symbol && token.text == "*")
        }
    }

    /// How a reference is joined by `ON a.x = b.y` alone, along a foreign key.
    private enum JoinKey {
        /// Along a foreign key of the reference's own table that points at the other table.
        case child
        /// Along a NOT NULL foreign key of the other table that points at the reference's table.
        case requiredParent
    }

    /// One SELECT whose aggregates are SUM, AVG or TOTAL, with no DISTINCT, COUNT, MIN, MAX,
    /// EXISTS or `SELECT *`.
    private static func isSum(_ tokens: [SQLTokens.Token]) -> Bool {
        let refused: Set<String> = [
            "distinct", "count", "min", "max", "group_concat", "union", "except", "intersect", "exists",
        ]
        let sums: Set<String> = ["sum", "avg", "total"]
        let selects = tokens.filter { $0.isKeyword("select") }.count
        let starsAllColumns = tokens.indices.contains { index in
            guard tokens[index].kind == .symbol, tokens[index].text == "*", index > 0 else { return false }
            let previous = tokens[index - 1]
            return previous.isKeyword("select") || [",", ".", "("].contains(previous.text)
        }
        return selects == 1 && !starsAllColumns
            && tokens.indices.contains { index in
                tokens[index].kind == .word && sums.contains(SQLIdentifier.foldCase(tokens[index].text))
                    && index + 1 < tokens.count && tokens[index + 1].text == "("
            }
            && !tokens.contains { $0.kind == .word && refused.contains(SQLIdentifier.foldCase($0.text)) }
    }

    /// How the reference is joined, when its condition is `ON a.x = b.y` alone along a single-
    /// column foreign key between its table and the other table of the equality.
    private static func joinKey(
        of reference: TableReference, end: Int, tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema
    ) -> JoinKey? {
        let condition = Array(tokens[reference.end..<end])
        guard condition.count == 8, condition[0].isKeyword("on"), condition[2].text == ".", condition[4].text == "=",
              condition[6].text == "." else { return nil }
        let sides = [(condition[1].text, condition[3].text), (condition[5].text, condition[7].text)]
        guard let own = sides.first(where: { SQLIdentifier.same($0.0, reference.alias) }),
              let other = sides.first(where: { !SQLIdentifier.same($0.0, reference.alias) }),
              let otherReference = references.first(where: { SQLIdentifier.same($0.alias, other.0) }),
              let table = schema.table(named: reference.table),
              let otherTable = schema.table(named: otherReference.table)
        else { return nil }
        if refers(table, column: own.1, to: otherTable.name, column: other.1) { return .child }
        if refers(otherTable, column: other.1, to: table.name, column: own.1), otherTable.column(named: other.1)?.isNotNull == true {
            return .requiredParent
        }
        return nil
    }

    /// True when `column` of `table` is a single-column foreign key to `referenced`'s
    /// `referencedColumn` (or to its primary key, when the key names no column).
    private static func refers(_ table: TableSchema, column: String, to referenced: String, column referencedColumn: String) -> Bool {
        table.foreignKeys.contains { key in
            key.columns.count == 1 && SQLIdentifier.same(key.columns[0], column)
                && SQLIdentifier.same(key.referencedTable, referenced)
                && (key.referencedColumns.first.map { SQLIdentifier.same($0, referencedColumn) } ?? true)
        }
    }

    /// True when a column of the reference's table appears outside `range`: qualified by its
    /// alias, or bare and found in no other table of the statement.
    private static func isUsed(
        _ reference: TableReference, outside range: Range<Int>, tokens: [SQLTokens.Token], references: [TableReference],
        schema: DatabaseSchema
    ) -> Bool {
        guard let table = schema.table(named: reference.table) else { return true }
        let others = references.filter { $0.alias != reference.alias }.compactMap { schema.table(named: $0.table) }
        for index in tokens.indices where !range.contains(index) && tokens[index].kind != .symbol {
            let qualified = index + 1 < tokens.count && tokens[index + 1].text == "."
            if qualified, tokens[index].names(reference.alias) { return true }
            let isQualifiedColumn = index > 0 && tokens[index - 1].text == "."
            if !qualified, !isQualifiedColumn, table.column(named: tokens[index].text) != nil,
               !others.contains(where: { $0.column(named: tokens[index].text) != nil }) {
                return true
            }
        }
        return false
    }

    /// True when the question names the table: a word of its name that the other tables of the
    /// statement do not have (`demo` of `CustomerCustomerDemo` next to `Customers`).
    private static func isNamed(_ reference: TableReference, in questionWords: Set<String>, references: [TableReference]) -> Bool {
        let otherWords = Set(references.filter { $0.alias != reference.alias }.flatMap { NameWords.ofIdentifier($0.table) })
        let own = NameWords.ofIdentifier(reference.table).filter { !otherWords.contains($0) }
        return own.isEmpty || own.contains { questionWords.contains($0) }
    }
}
