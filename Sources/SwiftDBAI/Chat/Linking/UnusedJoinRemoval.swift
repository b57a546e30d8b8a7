/// Removes a join that only repeats rows: small models answer "Which customers live in London?"
/// with `SELECT c.CompanyName FROM Customers c JOIN Orders o ON o.CustomerID = c.CustomerID
/// WHERE c.City = 'London'`, which lists each customer once per order and leaves out those
/// with none.
///
/// Applied only to a plain list: one SELECT, with no DISTINCT, GROUP BY, aggregate or `*`. A
/// table is removed when it is inner-joined on a single foreign-key equality in which it is the
/// referring table (each of the other table's rows can match many of its rows), none of its
/// columns is used outside that condition, and the question does not name it (`Orders` in
/// "customers who placed orders" keeps the join). The rewritten statement goes through the
/// classifier and policy like any other.
enum UnusedJoinRemoval {
    static func rewritten(_ sql: String, question: String, schema: DatabaseSchema) -> String? {
        let tokens = SQLTokens(sql).tokens
        guard let first = tokens.first, first.isKeyword("select"), isPlainList(tokens) else { return nil }
        let references = TableReference.all(in: tokens, schema: schema)
        guard references.count >= 2 else { return nil }
        let questionWords = Set(NameWords.ofText(question))
        for reference in references.dropFirst() where !reference.isLeftJoined && tokens[reference.start].kind == .word {
            let end = reference.clauseEnd(in: tokens)
            guard isChildJoin(reference, end: end, tokens: tokens, references: references, schema: schema),
                  !isUsed(reference, outside: reference.start..<end, tokens: tokens, references: references, schema: schema),
                  !isNamed(reference, in: questionWords, references: references)
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

    /// True when the reference is joined by `ON a.x = b.y` alone, along a foreign key of its own
    /// table that points at the other table of the equality.
    private static func isChildJoin(
        _ reference: TableReference, end: Int, tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema
    ) -> Bool {
        let condition = Array(tokens[reference.end..<end])
        guard condition.count == 8, condition[0].isKeyword("on"), condition[2].text == ".", condition[4].text == "=",
              condition[6].text == "." else { return false }
        let sides = [(condition[1].text, condition[3].text), (condition[5].text, condition[7].text)]
        guard let own = sides.first(where: { SQLIdentifier.same($0.0, reference.alias) }),
              let other = sides.first(where: { !SQLIdentifier.same($0.0, reference.alias) }),
              let otherReference = references.first(where: { SQLIdentifier.same($0.alias, other.0) }),
              let table = schema.table(named: reference.table)
        else { return false }
        return table.foreignKeys.contains { key in
            key.columns.count == 1 && SQLIdentifier.same(key.columns[0], own.1)
                && SQLIdentifier.same(key.referencedTable, otherReference.table)
                && (key.referencedColumns.first.map { SQLIdentifier.same($0, other.1) } ?? true)
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
