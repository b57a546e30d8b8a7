import SwiftDBAI

/// Finds comparisons of keys that identify different tables: a small model joins
/// `loan.loan_id = reservation.reservation_id`, or asks for books `WHERE book_id NOT IN (SELECT
/// copy_id FROM loan)`. Such a statement runs and answers wrongly; SQLite cannot tell.
///
/// A column identifies its table when it is the table's one-column primary key, and the table it
/// refers to when it is a one-column foreign key (both, when it is both). Two columns compared by
/// `a = b`, or by `a [NOT] IN (SELECT b FROM …)`, that identify no table in common are a finding.
enum KeyComparisonCheck {
    /// Two compared columns that identify different tables.
    struct Finding: Sendable, Hashable {
        var left: Side
        var right: Side

        struct Side: Sendable, Hashable {
            var table: String
            var column: String
            /// The tables whose rows the column identifies.
            var identifies: [String]
        }
    }

    static func findings(in statement: ParsedStatement, schema: DatabaseSchema) -> [Finding] {
        let (tokens, references) = (statement.codeTokens, statement.references)
        guard !references.isEmpty else { return [] }
        var findings: [Finding] = []
        for index in tokens.indices {
            guard let (leftEnd, rightStart) = comparison(at: index, in: tokens) else { continue }
            // `a IN (SELECT b …)`: a belongs to the tables before the subquery, b to those inside.
            let isSubquery = tokens[index].isKeyword("in")
            let outer = isSubquery ? references.filter { $0.start < index } : references
            let inner = isSubquery ? references.filter { $0.start > index } : references
            guard let left = side(endingAt: leftEnd, in: tokens, references: outer, schema: schema),
                  let right = side(startingAt: rightStart, in: tokens, references: inner, schema: schema),
                  Set(left.identifies.map(SQLIdentifier.foldCase)).isDisjoint(with: right.identifies.map(SQLIdentifier.foldCase))
            else { continue }
            let finding = Finding(left: left, right: right)
            if !findings.contains(finding) { findings.append(finding) }
        }
        return findings
    }

    /// What the model is told: the mismatched comparisons and the foreign-key joins between the
    /// tables involved.
    static func message(for findings: [Finding], schema: DatabaseSchema) -> String {
        var lines = findings.map { finding in
            "It compares \(finding.left.table).\(finding.left.column) (a key of \(finding.left.identifies.joined(separator: " and of "))) "
                + "with \(finding.right.table).\(finding.right.column) (a key of \(finding.right.identifies.joined(separator: " and of "))): "
                + "they never name the same row."
        }
        var tables: [String] = []
        for finding in findings {
            for table in [finding.left.table, finding.right.table] + finding.left.identifies + finding.right.identifies
            where !tables.contains(where: { SQLIdentifier.same($0, table) }) {
                tables.append(table)
            }
        }
        let joins = JoinPath.connecting(tables, in: schema)
        if !joins.isEmpty { lines.append("Foreign keys: " + joins.map(\.description).joined(separator: ", ") + ".") }
        return lines.joined(separator: "\n")
    }

    /// For a comparison whose operator or IN is at `index`: the index of the last token of its
    /// left operand and of the first token of its right operand.
    private static func comparison(at index: Int, in tokens: [SQLTokens.Token]) -> (Int, Int)? {
        guard index >= 1, index + 1 < tokens.count else { return nil }
        let token = tokens[index]
        if token.kind == .symbol, token.text == "=" {
            let left = index - 1
            guard tokens[left].kind != .symbol else { return nil }
            return (left, index + 1)
        }
        guard token.isKeyword("in"), index + 2 < tokens.count, tokens[index + 1].text == "(", tokens[index + 2].isKeyword("select")
        else { return nil }
        var left = index - 1
        if tokens[left].isKeyword("not") { left -= 1 }
        var right = index + 3
        if right < tokens.count, tokens[right].isKeyword("distinct") { right += 1 }
        guard left >= 0, right < tokens.count else { return nil }
        // Only a subquery that selects one column: `SELECT [DISTINCT] [q.]c FROM`.
        let afterColumn = right + 1 < tokens.count && tokens[right + 1].text == "." ? right + 3 : right + 1
        guard afterColumn < tokens.count, tokens[afterColumn].isKeyword("from") else { return nil }
        return (left, right)
    }

    private static func side(
        endingAt index: Int, in tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema
    ) -> Finding.Side? {
        SQLTokens.columnReference(endingAt: index, in: tokens).flatMap { side($0, in: tokens, references: references, schema: schema) }
    }

    private static func side(
        startingAt index: Int, in tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema
    ) -> Finding.Side? {
        SQLTokens.columnReference(startingAt: index, in: tokens).flatMap { side($0, in: tokens, references: references, schema: schema) }
    }

    private static func side(
        _ reference: SQLTokens.ColumnReference, in tokens: [SQLTokens.Token], references: [TableReference], schema: DatabaseSchema
    ) -> Finding.Side? {
        side(column: tokens[reference.name].text, qualifier: reference.qualifier.map { tokens[$0].text }, references: references, schema: schema)
    }

    /// The column `qualifier.column` of the statement with the tables it identifies; nil when it
    /// is no key or its table is unknown.
    static func side(column: String, qualifier: String?, references: [TableReference], schema: DatabaseSchema) -> Finding.Side? {
        guard let table = TableReference.owner(ofColumn: column, qualifier: qualifier, among: references, schema: schema),
              let name = table.column(named: column)?.name
        else { return nil }
        var identifies: [String] = []
        if table.primaryKey.count == 1, SQLIdentifier.same(table.primaryKey[0], name) { identifies.append(table.name) }
        for key in table.foreignKeys where key.columns.count == 1 && SQLIdentifier.same(key.columns[0], name) {
            if let referenced = schema.table(named: key.referencedTable)?.name, !identifies.contains(referenced) {
                identifies.append(referenced)
            }
        }
        return identifies.isEmpty ? nil : Finding.Side(table: table.name, column: name, identifies: identifies)
    }
}
