import SwiftDBAI

/// Mends a join whose condition compares keys of different tables, when the foreign keys say
/// what was meant:
/// - `Artist ar JOIN Album al ON ar.ArtistId = al.AlbumId` → `al.ArtistId`: exactly one
///   foreign key of one side's table refers to a table the other side identifies;
/// - `venues v JOIN reviews r ON v.id = r.event_id` (reviews refer to events, events to venues)
///   → `venues v JOIN events ON events.venue_id = v.id JOIN reviews r ON events.id = r.event_id`:
///   one side is a foreign key to a table outside the statement that has exactly one foreign
///   key to the other side's table, whose primary key the other side is.
///
/// Applied to a JOIN whose condition is one equality of two qualified columns that identify no
/// table in common (`KeyComparisonCheck`), one of them of the joined table. Only statements
/// that read are changed. The rewritten statement goes through the classifier and policy like
/// any other.
struct KeyJoinCorrection: SQLRewriteRule {
    let name = "key_join"
    let kind = SQLRewriteKind.guess

    /// Each application mends one join; a statement may have a few.
    let maxApplications = 4

    private typealias Side = KeyComparisonCheck.Finding.Side

    /// The statement with its first join on keys of different tables mended, or nil.
    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, tokens, references, schema) = (statement.sql, statement.codeTokens, statement.references, context.schema)
        for reference in references where tokens[reference.start].kind == .word && !tokens[reference.start].isKeyword("from") {
            let end = reference.clauseEnd(in: tokens)
            guard end - reference.end == 8 else { continue }
            let on = reference.end
            guard tokens[on].isKeyword("on"), tokens[on + 2].text == ".", tokens[on + 4].text == "=", tokens[on + 6].text == "."
            else { continue }
            let operands = [on + 1, on + 5]
            guard let joinedOperand = operands.first(where: { tokens[$0].names(reference.alias) }),
                  let earlierOperand = operands.first(where: { $0 != joinedOperand }),
                  !tokens[earlierOperand].names(reference.alias)
            else { continue }
            let earlierReferences = references.filter { $0.start < reference.start }
            guard let joined = KeyComparisonCheck.side(
                    column: tokens[joinedOperand + 2].text, qualifier: reference.alias, references: [reference], schema: schema),
                  let earlier = KeyComparisonCheck.side(
                    column: tokens[earlierOperand + 2].text, qualifier: tokens[earlierOperand].text,
                    references: earlierReferences, schema: schema),
                  Set(joined.identifies.map(SQLIdentifier.foldCase)).isDisjoint(with: earlier.identifies.map(SQLIdentifier.foldCase))
            else { continue }
            let columnEdit = { (operand: Int, column: String) -> SQLTokens.Edit in
                SQLTokens.Edit(range: tokens[operand + 2].range, text: SQLIdentifier.quotedIfNeeded(column))
            }
            let substitutes = Self.foreignKeys(of: joined.table, into: earlier.identifies, schema: schema).map { columnEdit(joinedOperand, $0) }
                + Self.foreignKeys(of: earlier.table, into: joined.identifies, schema: schema).map { columnEdit(earlierOperand, $0) }
            if substitutes.count == 1 { return SQLTokens.applying(substitutes, to: sql) }
            guard substitutes.isEmpty,
                  let bridge = Self.bridge(joined: joined, earlier: earlier, references: references, schema: schema)
            else { continue }
            let earlierText = String(sql[tokens[earlierOperand].range.lowerBound..<tokens[earlierOperand + 2].range.upperBound])
            let table = SQLIdentifier.quotedIfNeeded(bridge.table)
            let joinWord = reference.isLeftJoined ? "LEFT JOIN" : "JOIN"
            let insertion = tokens[reference.start].range.lowerBound
            return SQLTokens.applying([
                SQLTokens.Edit(range: insertion..<insertion,
                               text: "\(joinWord) \(table) ON \(table).\(SQLIdentifier.quotedIfNeeded(bridge.joinedColumn)) = \(earlierText) "),
                SQLTokens.Edit(range: tokens[earlierOperand].range.lowerBound..<tokens[earlierOperand + 2].range.upperBound,
                               text: "\(table).\(SQLIdentifier.quotedIfNeeded(bridge.replacingColumn))"),
            ], to: sql)
        }
        return nil
    }

    /// The single-column foreign keys of `table` that refer to one of `targets`.
    private static func foreignKeys(of table: String, into targets: [String], schema: DatabaseSchema) -> [String] {
        guard let table = schema.table(named: table) else { return [] }
        return table.foreignKeys.filter { key in
            key.columns.count == 1 && targets.contains { SQLIdentifier.same($0, key.referencedTable) }
        }.map { $0.columns[0] }
    }

    /// A table outside the statement that links the two sides: one side refers to it, and it has
    /// exactly one foreign key to the table whose primary key the other side is. Its column that
    /// equals the earlier side (`joinedColumn`) and the one that replaces the earlier side in the
    /// condition (`replacingColumn`).
    private static func bridge(
        joined: Side, earlier: Side, references: [TableReference], schema: DatabaseSchema
    ) -> (table: String, joinedColumn: String, replacingColumn: String)? {
        func foreignKey(of side: Side) -> ForeignKeySchema? {
            schema.table(named: side.table)?.foreignKeys.first { $0.columns.count == 1 && SQLIdentifier.same($0.columns[0], side.column) }
        }
        func isPrimaryKey(_ side: Side) -> Bool {
            guard let table = schema.table(named: side.table) else { return false }
            return table.primaryKey.count == 1 && SQLIdentifier.same(table.primaryKey[0], side.column)
        }
        func keyColumn(of key: ForeignKeySchema, in table: TableSchema) -> String? {
            key.referencedColumns.first ?? (table.primaryKey.count == 1 ? table.primaryKey[0] : nil)
        }
        let inStatement = Set(references.flatMap { [SQLIdentifier.foldCase($0.table), SQLIdentifier.foldCase($0.alias)] })
        // The joined side refers to the bridge, which refers to the earlier side's table.
        if let key = foreignKey(of: joined), isPrimaryKey(earlier), let middle = schema.table(named: key.referencedTable),
           !inStatement.contains(SQLIdentifier.foldCase(middle.name)) {
            let links = foreignKeys(of: middle.name, into: [earlier.table], schema: schema)
            if links.count == 1, let target = keyColumn(of: key, in: middle) {
                return (middle.name, links[0], target)
            }
        }
        // The earlier side refers to the bridge, which refers to the joined side's table.
        if let key = foreignKey(of: earlier), isPrimaryKey(joined), let middle = schema.table(named: key.referencedTable),
           !inStatement.contains(SQLIdentifier.foldCase(middle.name)) {
            let links = foreignKeys(of: middle.name, into: [joined.table], schema: schema)
            if links.count == 1, let target = keyColumn(of: key, in: middle) {
                return (middle.name, target, links[0])
            }
        }
        return nil
    }
}
