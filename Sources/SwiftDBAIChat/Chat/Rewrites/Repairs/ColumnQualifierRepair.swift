import SwiftDBAI

/// Repairs the most common mistake of small models in joins: a column qualified with the wrong
/// table alias (`T2.Country` where `T2` is `Invoice` and `Country` is a column of `T1`, the
/// `Customer`).
///
/// Also a table qualified by its own name after it was given an alias (`fine.amount` where the
/// statement says `JOIN fine AS f`).
///
/// Applied only to SQLite's "no such column: A.C" error, and only when exactly one other table
/// of the statement has the column and no table one foreign key away from A's table, outside
/// the statement, has it too (then the model more likely forgot a join, which the model must
/// fix). A repair that would compare a column with itself is refused. The repaired statement
/// goes through the classifier and policy like any other.
struct ColumnQualifierRepair: SQLRewriteRule {
    let name = "column_qualifier"
    let kind = SQLRewriteKind.repair

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        guard let failure = context.failure else { return nil }
        let (sql, schema) = (statement.sql, context.schema)
        guard let (qualifier, column) = failure.missingQualifiedColumn else { return nil }
        let tokens = statement.codeTokens
        let aliases = statement.references.map { (alias: $0.alias, table: $0.table) }
        if let renamed = Self.aliasRestored(sql, qualifier: qualifier, column: column, tokens: tokens, aliases: aliases, schema: schema) {
            return renamed
        }
        guard let wrong = aliases.first(where: { SQLIdentifier.same($0.alias, qualifier) }),
              let wrongTable = schema.table(named: wrong.table), wrongTable.column(named: column) == nil else { return nil }
        let owners = aliases.filter { entry in
            !SQLIdentifier.same(entry.alias, qualifier) && schema.table(named: entry.table)?.column(named: column) != nil
        }
        guard owners.count == 1, let owner = owners.first else { return nil }
        let inStatement = Set(aliases.map { SQLIdentifier.foldCase($0.table) })
        if Self.neighbours(of: wrongTable, in: schema).contains(where: { table in
            !inStatement.contains(SQLIdentifier.foldCase(table.name)) && table.column(named: column) != nil
        }) {
            return nil
        }
        let edits = SQLTokens.occurrences(of: qualifier, column, in: tokens).map { index in
            SQLTokens.Edit(range: tokens[index].range, text: owner.alias)
        }
        guard !edits.isEmpty else { return nil }
        let repaired = SQLTokens.applying(edits, to: sql)
        guard !Self.comparesColumnWithItself(SQLTokens(repaired).tokens) else { return nil }
        return repaired
    }

    /// A table qualified by its own name after the statement gave it an alias (`fine.amount` in
    /// `… JOIN fine AS f …`, which SQLite no longer knows): every `fine.` becomes `f.`. Only when
    /// the table appears once in the statement, under an alias, and has the column.
    private static func aliasRestored(
        _ sql: String, qualifier: String, column: String, tokens: [SQLTokens.Token], aliases: [(alias: String, table: String)],
        schema: DatabaseSchema
    ) -> String? {
        let sameTable = aliases.filter { SQLIdentifier.same($0.table, qualifier) }
        guard sameTable.count == 1, let aliased = sameTable.first, !SQLIdentifier.same(aliased.alias, qualifier),
              !aliases.contains(where: { SQLIdentifier.same($0.alias, qualifier) }),
              schema.table(named: aliased.table)?.column(named: column) != nil
        else { return nil }
        let edits = tokens.indices.filter { index in
            index + 2 < tokens.count && tokens[index].names(qualifier) && tokens[index + 1].text == "."
                && (index == 0 || tokens[index - 1].text != ".") && tokens[index + 2].kind != .symbol
        }.map { SQLTokens.Edit(range: tokens[$0].range, text: aliased.alias) }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    private static func neighbours(of table: TableSchema, in schema: DatabaseSchema) -> [TableSchema] {
        let referenced = table.foreignKeys.compactMap { schema.table(named: $0.referencedTable) }
        let referencing = schema.tables.filter { other in
            other.foreignKeys.contains { SQLIdentifier.same($0.referencedTable, table.name) }
        }
        return (referenced + referencing).filter { !SQLIdentifier.same($0.name, table.name) }
    }

    /// True when the tokens hold `X.C = X.C`.
    private static func comparesColumnWithItself(_ tokens: [SQLTokens.Token]) -> Bool {
        guard tokens.count >= 7 else { return false }
        return (0...(tokens.count - 7)).contains { index in
            tokens[index + 1].text == "." && tokens[index + 3].text == "=" && tokens[index + 5].text == "."
                && tokens[index].kind != .symbol && tokens[index + 4].names(tokens[index].text)
                && tokens[index + 2].kind != .symbol && tokens[index + 6].names(tokens[index + 2].text)
        }
    }
}
