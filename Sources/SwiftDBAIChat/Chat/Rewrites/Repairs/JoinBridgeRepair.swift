import SwiftDBAI

/// Repairs a join that skips a table: `FROM Track T1 JOIN Artist T2 ON T1.ArtistId = T2.ArtistId`
/// where `Track` has no `ArtistId` and reaches `Artist` only through `Album`. Small models make
/// this mistake on most questions that need three tables, and tend to repeat it when told.
///
/// Applied only to SQLite's "no such column: A.C" error (or "no such column: C" in a statement of
/// one table A, where every bare `C` gets the new table's qualifier, and only along foreign keys
/// of the tables reached, which neither repeat nor drop A's rows), when A's table lacks C, exactly one
/// table outside the statement that has C is nearest to A's table along foreign keys (at most
/// two keys away), and no other table of the statement is nearer to it (then A is the wrong
/// table rather than a join too short, and the model must rewrite the statement). That table is
/// joined right after A's part of the FROM clause, along the foreign keys
/// (`JOIN Album ON T1.AlbumId = Album.AlbumId`), and `A.C` becomes that table's column. The
/// repaired statement goes through the classifier and policy like any other.
struct JoinBridgeRepair: SQLRewriteRule {
    let name = "join_bridge"
    let kind = SQLRewriteKind.repair

    /// The longest chain of foreign keys a bridge may follow.
    static let maxKeys = 2

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        guard let failure = context.failure else { return nil }
        let (sql, schema, tokens, references) = (statement.sql, context.schema, statement.codeTokens, statement.references)
        let missing: (qualifier: String, column: String)
        if let bare = failure.missingBareColumn {
            // A bare name in a statement of one table: the name is read as that table's.
            guard references.count == 1, let only = references.first,
                  !SQLIdentifier.same(only.alias, bare) || SQLIdentifier.same(only.table, bare)
            else { return nil }
            missing = (only.alias, bare)
        } else if let qualified = failure.missingQualifiedColumn {
            missing = qualified
        } else {
            return nil
        }
        let (qualifier, column) = missing
        guard let reference = references.first(where: { SQLIdentifier.same($0.alias, qualifier) }),
              let table = schema.table(named: reference.table), table.column(named: column) == nil,
              let (path, owner) = Self.bridge(from: table.name, to: column, avoiding: references, schema: schema)
        else { return nil }
        if failure.missingBareColumn != nil, !Self.followsReferences(path, from: table.name) { return nil }

        var aliases: [String: String] = [SQLIdentifier.foldCase(table.name): reference.alias]
        var used = Set(references.map { SQLIdentifier.foldCase($0.alias) })
        var joins: [String] = []
        var reached = [table.name]
        let joinWord = reference.isLeftJoined ? "LEFT JOIN" : "JOIN"
        for step in path {
            let newTable = reached.contains(where: { SQLIdentifier.same($0, step.table) }) ? step.referencedTable : step.table
            let alias = Self.freshAlias(for: newTable, used: &used)
            aliases[SQLIdentifier.foldCase(newTable)] = alias
            reached.append(newTable)
            func qualified(_ table: String, _ column: String) -> String {
                SQLIdentifier.quotedIfNeeded(aliases[SQLIdentifier.foldCase(table)] ?? table) + "."
                    + SQLIdentifier.quotedIfNeeded(column)
            }
            let written = SQLIdentifier.quotedIfNeeded(newTable)
            let tableText = SQLIdentifier.same(alias, newTable) ? written : "\(written) AS \(SQLIdentifier.quotedIfNeeded(alias))"
            joins.append("\(joinWord) \(tableText) ON \(qualified(step.table, step.column)) = \(qualified(step.referencedTable, step.referencedColumn))")
        }
        guard let ownerAlias = aliases[SQLIdentifier.foldCase(owner)] else { return nil }

        var edits = SQLTokens.occurrences(of: qualifier, column, in: tokens).map { index in
            SQLTokens.Edit(range: tokens[index].range, text: SQLIdentifier.quotedIfNeeded(ownerAlias))
        }
        for index in SQLTokens.bareOccurrences(of: column, in: tokens) {
            edits.append(SQLTokens.Edit(range: tokens[index].range.lowerBound..<tokens[index].range.lowerBound,
                                        text: SQLIdentifier.quotedIfNeeded(ownerAlias) + "."))
        }
        let insertion = reference.clauseEnd(in: tokens)
        let bridgeText = joins.joined(separator: " ")
        if insertion < tokens.count {
            let at = tokens[insertion].range.lowerBound
            edits.append(SQLTokens.Edit(range: at..<at, text: bridgeText + " "))
        } else {
            edits.append(SQLTokens.Edit(range: sql.endIndex..<sql.endIndex, text: " " + bridgeText))
        }
        return SQLTokens.applying(edits, to: sql)
    }

    /// True when each step of the path goes from a referring table to the table it refers to,
    /// so that the joins neither repeat nor multiply the rows of `start`.
    private static func followsReferences(_ path: [JoinCondition], from start: String) -> Bool {
        var current = start
        for step in path {
            guard SQLIdentifier.same(step.table, current) else { return false }
            current = step.referencedTable
        }
        return true
    }

    /// The foreign keys from `table` to the one nearest table outside the statement that has
    /// `column`; nil when there is none within ``maxKeys`` or when two are equally near.
    private static func bridge(
        from table: String, to column: String, avoiding references: [TableReference], schema: DatabaseSchema
    ) -> (path: [JoinCondition], owner: String)? {
        let inStatement = Set(references.map { SQLIdentifier.foldCase($0.table) })
        let candidates = schema.tables.filter { candidate in
            candidate.kind == .table && !inStatement.contains(SQLIdentifier.foldCase(candidate.name))
                && candidate.column(named: column) != nil
        }
        let paths = candidates.map { (path: JoinPath.connecting([table, $0.name], in: schema), owner: $0.name) }
            .filter { !$0.path.isEmpty && $0.path.count <= maxKeys }
        guard let shortest = paths.map(\.path.count).min() else { return nil }
        let nearest = paths.filter { $0.path.count == shortest }
        guard nearest.count == 1, let chosen = nearest.first else { return nil }
        // Another table of the statement nearer the column (a path through the statement's own
        // tables included) means the statement is wrong in a way a join cannot mend: the model
        // must rewrite it.
        let nearerTable = references.contains { reference in
            guard !SQLIdentifier.same(reference.table, table) else { return false }
            let path = JoinPath.connecting([reference.table, chosen.owner], in: schema)
            return !path.isEmpty && path.count < chosen.path.count
        }
        return nearerTable ? nil : chosen
    }

    /// The table's own name when the statement does not use it as an alias, else the name with
    /// a number.
    private static func freshAlias(for table: String, used: inout Set<String>) -> String {
        var alias = table
        var number = 2
        while used.contains(SQLIdentifier.foldCase(alias)) {
            alias = "\(table)\(number)"
            number += 1
        }
        used.insert(SQLIdentifier.foldCase(alias))
        return alias
    }
}
