import SwiftDBAI

/// Groups by the thing a question counts, not by its name: small models write
/// `SELECT t.Name, SUM(l.Quantity) FROM Track t JOIN InvoiceLine l … GROUP BY t.Name`, which
/// merges the five different tracks called "The Trooper" into one. The statement becomes
/// `GROUP BY t.TrackId, t.Name`.
///
/// Applied only to a SELECT whose outermost GROUP BY lists only name or title columns of one
/// table (text columns with "name" or "title" in their name, not unique) that the SELECT list
/// shows, when that table has a one-column primary key and another table of the statement
/// refers to it by a foreign key: the rows grouped are the table's children, so each group is
/// meant to be one of its rows. Grouping one table by a name (`how many customers share a first
/// name`) is left alone. The rewritten statement goes through the classifier and policy like any
/// other.
struct EntityGrouping: SQLRewriteRule {
    let name = "entity_grouping"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "It groups by a name, which merges different rows that share a name; group by the table's key as well."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let schema = context.schema
        let tokens = statement.codeTokens
        guard let first = tokens.first, first.isKeyword("select"),
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens),
              let group = SQLTokens.topLevelIndex(of: "group", in: tokens), group + 2 < tokens.count,
              tokens[group + 1].isKeyword("by"), from < group,
              let terms = Self.groupingTerms(after: group + 2, in: tokens) else { return nil }
        let references = statement.references
        guard references.count >= 2 else { return nil }

        var grouped: TableReference?
        var columns: [String] = []
        for term in terms {
            guard let (reference, column) = Self.resolve(term, in: references, schema: schema),
                  grouped == nil || grouped?.alias == reference.alias else { return nil }
            grouped = reference
            columns.append(column)
        }
        guard let grouped, let table = schema.table(named: grouped.table), table.primaryKey.count == 1,
              let key = table.primaryKey.first,
              columns.allSatisfy({ Self.isName($0, of: table) }),
              references.contains(where: { other in
                  other.alias != grouped.alias && schema.table(named: other.table)?.foreignKeys
                      .contains { SQLIdentifier.same($0.referencedTable, table.name) } == true
              })
        else { return nil }
        let selectList = tokens[1..<from]
        guard columns.allSatisfy({ column in selectList.contains { $0.names(column) } }) else { return nil }

        let qualifier = SQLIdentifier.quotedIfNeeded(grouped.alias)
        var result = sql
        let at = tokens[group + 2].range.lowerBound
        result.insert(contentsOf: "\(qualifier).\(SQLIdentifier.quotedIfNeeded(key)), ", at: at)
        return result
    }

    /// The GROUP BY terms from `start`, each one name or `qualifier.name`; nil when a term is
    /// anything else (an expression, a number).
    private static func groupingTerms(after start: Int, in tokens: [SQLTokens.Token]) -> [[SQLTokens.Token]]? {
        let ends: Set<String> = ["having", "order", "limit", "window", "union", "except", "intersect"]
        var terms: [[SQLTokens.Token]] = [[]]
        for token in tokens[start...] {
            if token.kind == .word, ends.contains(SQLIdentifier.foldCase(token.text)) { break }
            if token.kind == .symbol, token.text == ")" || token.text == ";" { break }
            if token.kind == .symbol, token.text == "," { terms.append([]); continue }
            terms[terms.count - 1].append(token)
        }
        let wellFormed = terms.allSatisfy { term in
            (term.count == 1 && term[0].kind != .symbol)
                || (term.count == 3 && term[0].kind != .symbol && term[1].text == "." && term[2].kind != .symbol)
        }
        return wellFormed ? terms : nil
    }

    /// The table reference and column a GROUP BY term names: by its qualifier, or the one table
    /// of the statement that has the column.
    private static func resolve(
        _ term: [SQLTokens.Token], in references: [TableReference], schema: DatabaseSchema
    ) -> (TableReference, String)? {
        let column = term[term.count - 1].text
        let owners = references.filter { reference in
            if term.count == 3, !SQLIdentifier.same(reference.alias, term[0].text) { return false }
            return schema.table(named: reference.table)?.column(named: column) != nil
        }
        guard owners.count == 1, let owner = owners.first else { return nil }
        return (owner, column)
    }

    /// True for a text column named like a name or title that is neither the key nor unique.
    private static func isName(_ name: String, of table: TableSchema) -> Bool {
        guard let column = table.column(named: name), column.primaryKeyPosition == nil else { return false }
        let folded = SQLIdentifier.foldCase(column.name)
        let type = SQLIdentifier.foldCase(column.declaredType)
        let isText = type.isEmpty || type.contains("char") || type.contains("text") || type.contains("clob")
        let isUnique = table.indexes.contains { index in
            index.isUnique && !index.isPartial && index.columns.count == 1 && SQLIdentifier.same(index.columns[0], column.name)
        }
        return isText && !isUnique && (folded.contains("name") || folded.contains("title"))
    }
}
