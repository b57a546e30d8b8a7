import Foundation
import SwiftDBAI
import SwiftDBAIChat

/// Whether a read's `ORDER BY` makes the order of its rows unique, so that its pages cannot
/// shift while the data stays the same.
///
/// Conservative: it says yes only for one `SELECT` from one table (no join, grouping, DISTINCT,
/// compound or CTE), ordered by plain column names that are not aliases of something else and
/// that cover a unique key — the rowid, the primary key, or a unique index of NOT NULL columns.
/// Any other statement is reported as possibly unstable; never the other way round.
struct OrderUniqueness: Sendable {
    let schema: DatabaseSchema

    private static let disqualifying: Set<String> = [
        "join", "union", "intersect", "except", "group", "distinct", "with", "window", "over", "values",
    ]

    func isUnique(_ statement: ClassifiedStatement) -> Bool {
        guard statement.tablesRead.count == 1, let tableName = statement.tablesRead.first,
              let table = schema.table(named: tableName), table.kind == .table else { return false }
        let tokens = SQLTokens(statement.sql).tokens.filter { !($0.kind == .symbol && $0.text == ";") }
        guard !tokens.contains(where: { $0.kind == .word && Self.disqualifying.contains($0.text.lowercased()) }),
              tokens.filter({ $0.isKeyword("select") }).count == 1, tokens.first?.isKeyword("select") == true,
              let from = tokens.firstIndex(where: { $0.isKeyword("from") }),
              let order = tokens.lastIndex(where: { $0.isKeyword("order") }), order + 1 < tokens.count,
              tokens[order + 1].isKeyword("by"), from < order
        else { return false }
        // FROM names the table itself (maybe as main.table), then perhaps an alias.
        var position = from + 1
        if position + 2 < tokens.count, tokens[position].names("main"), tokens[position + 1].text == "." { position += 2 }
        guard position < tokens.count, tokens[position].names(table.name) else { return false }
        let fromEnd = tokens[(position + 1)...].firstIndex { $0.isKeyword("where") || $0.isKeyword("order") } ?? tokens.count
        guard fromEnd - position <= 3, !tokens[position..<fromEnd].contains(where: { $0.text == "," }) else { return false }
        guard let ordered = orderedColumns(tokens[(order + 2)...]) else { return false }
        // A name given to a result column (`x AS id`, `x id`) would order by something else.
        for name in ordered {
            for index in tokens.indices[1..<from] where tokens[index].names(name) {
                let before = tokens[index - 1]
                guard before.isKeyword("select") || before.text == "," || before.text == "." else { return false }
            }
        }
        return Self.uniqueKeys(of: table).contains { key in key.allSatisfy { column in ordered.contains { SQLIdentifier.same($0, column) } } }
    }

    /// The column names of an `ORDER BY` of plain (maybe qualified) columns, up to LIMIT; nil when
    /// a term is anything else.
    private func orderedColumns(_ tokens: ArraySlice<SQLTokens.Token>) -> [String]? {
        var names: [String] = []
        var term: [SQLTokens.Token] = []
        func close() -> Bool {
            var words = term
            while let last = words.last, last.kind == .word,
                  ["asc", "desc", "first", "last", "nulls"].contains(last.text.lowercased()) { words.removeLast() }
            // Another collation may tie values the key tells apart ('a' and 'A' under NOCASE).
            guard !words.contains(where: { $0.isKeyword("collate") }) else { return false }
            guard let last = words.last, last.kind == .word || last.kind == .quotedIdentifier else { return false }
            guard words.count == 1 || (words.count == 3 && words[1].text == ".") else { return false }
            names.append(last.text)
            term = []
            return true
        }
        for token in tokens {
            if token.isKeyword("limit") { break }
            if token.text == "," {
                guard close() else { return nil }
            } else {
                term.append(token)
            }
        }
        guard close() else { return nil }
        return names
    }

    /// The sets of columns whose values identify a row.
    static func uniqueKeys(of table: TableSchema) -> [[String]] {
        var keys: [[String]] = []
        // A column may be declared with a collation that ties values its unique index tells
        // apart, or the other way round: keys of a table that names a collation count only when
        // they are integers.
        let namesCollation = table.sql.range(of: "collate", options: .caseInsensitive) != nil
        func comparesExactly(_ column: ColumnSchema) -> Bool {
            !namesCollation || column.declaredType.uppercased().contains("INT")
        }
        // `INTEGER PRIMARY KEY DESC` is not the rowid and may hold NULLs.
        let descendingKey = table.sql.range(of: #"PRIMARY\s+KEY\s+DESC"#, options: [.regularExpression, .caseInsensitive]) != nil
        if !table.isWithoutRowID {
            for alias in ["rowid", "oid", "_rowid_"] where table.column(named: alias) == nil { keys.append([alias]) }
        }
        // A rowid table's primary key may hold NULLs (SQLite's legacy), unless it is the rowid
        // itself or declared NOT NULL.
        let key = table.primaryKey
        let keyColumns = key.compactMap { table.column(named: $0) }
        if !key.isEmpty, keyColumns.count == key.count, keyColumns.allSatisfy(comparesExactly),
           table.isWithoutRowID || keyColumns.allSatisfy(\.isNotNull)
            || (keyColumns.count == 1 && keyColumns[0].declaredType.uppercased() == "INTEGER" && !descendingKey) {
            keys.append(key)
        }
        for index in table.indexes where index.isUnique && !index.isPartial {
            let columns = index.terms.compactMap { $0.isExpression ? nil : $0.column }
            guard columns.count == index.terms.count,
                  columns.allSatisfy({ name in
                      table.column(named: name).map { $0.isNotNull && comparesExactly($0) } ?? false
                  }) else { continue }
            keys.append(columns)
        }
        return keys
    }
}
