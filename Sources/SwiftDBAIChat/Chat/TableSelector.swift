import Foundation
import SwiftDBAI

/// Picks the tables relevant to a question when a schema is too large to send whole: tables and
/// columns whose names share words with the question score highest, then those whose
/// descriptions do; tables the caller names (those the question's worked examples read) come
/// next, and the tables they reference or are referenced by come along so joins stay possible.
///
/// When the ordinary tables fit within the limit and only the views overflow it, every table is
/// picked and the rest of the limit goes to the most relevant views: the tables then read the
/// same for every question, so a provider that caches a prompt prefix reuses it.
package struct TableSelector: Sendable {
    /// The most tables picked.
    package var limit: Int

    /// Creates a selector.
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The names of the tables to describe, most relevant first.
    ///
    /// - Parameter including: Tables to pick after the three that score highest (unknown names
    ///   are left out).
    package func select(for question: String, in schema: DatabaseSchema, including: [String] = []) -> [String] {
        guard schema.tables.count > limit else { return schema.tableNames }
        let words = Self.words(in: question)
        // A word found in many tables' names says little about which one a question means
        // (`table` in `table_0001` … `table_0400`): each word weighs by how rare it is.
        var tablesHaving: [String: Int] = [:]
        let nameWords = schema.tables.map { table in
            (table: Self.words(in: table.name), columns: table.columns.map { Self.words(in: $0.name) })
        }
        for entry in nameWords {
            for word in entry.table.union(entry.columns.reduce(into: Set<String>()) { $0.formUnion($1) }) {
                tablesHaving[word, default: 0] += 1
            }
        }
        let total = Double(schema.tables.count)
        func weight(_ word: String) -> Double { 1 + log(total / Double(max(1, tablesHaving[word] ?? 1))) }
        let described = Self.descriptionWords(of: schema)
        var scores: [String: Double] = [:]
        for (table, entry) in zip(schema.tables, nameWords) {
            var score = 0.0
            // A description's word weighs half a column's: a name says what a table is, a
            // description what it may also hold.
            score += 0.5 * (described[table.name] ?? []).intersection(words).subtracting(entry.table).reduce(0) { $0 + weight($1) }
            score += 3 * entry.table.intersection(words).reduce(0) { $0 + weight($1) }
            for column in entry.columns {
                let shared = column.intersection(words)
                if !shared.isEmpty { score += shared.reduce(0) { $0 + weight($1) } / Double(column.count) }
            }
            scores[table.name] = score
        }
        // Ties keep the schema's order, so the choice is the same from run to run.
        let ranked = schema.tables.enumerated().filter { (scores[$0.element.name] ?? 0) > 0 }
            .sorted { (scores[$0.element.name] ?? 0, -$0.offset) > (scores[$1.element.name] ?? 0, -$1.offset) }
            .map(\.element.name)
        var picked: [String] = []
        func add(_ name: String) {
            guard picked.count < limit, !picked.contains(where: { SQLIdentifier.same($0, name) }),
                  let table = schema.table(named: name) else { return }
            picked.append(table.name)
        }
        let ordinary = schema.tables.filter { $0.kind != .view }
        if ordinary.count <= limit {
            for table in ordinary { add(table.name) }
            for name in ranked where schema.table(named: name)?.kind == .view { add(name) }
            return picked
        }
        for name in ranked.prefix(3) { add(name) }
        for name in including { add(name) }
        for name in ranked { add(name) }
        // Neighbours through foreign keys, so the picked tables can be joined.
        for name in picked {
            guard let table = schema.table(named: name) else { continue }
            for key in table.foreignKeys { add(key.referencedTable) }
            for other in schema.tables where other.foreignKeys.contains(where: { SQLIdentifier.same($0.referencedTable, name) }) {
                add(other.name)
            }
        }
        if picked.isEmpty {
            // Nothing matched: the largest tables are the likeliest subjects.
            for table in schema.tables.sorted(by: { ($0.rowCount?.count ?? 0) > ($1.rowCount?.count ?? 0) }) {
                add(table.name)
            }
        }
        return picked
    }

    /// The words of each table's description and its columns' (four letters or more), leaving
    /// out the words that more than a quarter of the tables' descriptions share ("table", "each").
    private static func descriptionWords(of schema: DatabaseSchema) -> [String: Set<String>] {
        var words: [String: Set<String>] = [:]
        var tablesHaving: [String: Int] = [:]
        for table in schema.tables {
            let text = ([table.description] + table.columns.map(\.description)).compactMap { $0 }.joined(separator: " ")
            guard !text.isEmpty else { continue }
            let found = Self.words(in: text).filter { $0.count >= 4 }
            words[table.name] = found
            for word in found { tablesHaving[word, default: 0] += 1 }
        }
        let common = max(2, schema.tables.count / 4)
        return words.mapValues { $0.filter { (tablesHaving[$0] ?? 0) <= common } }
    }

    /// The words of a name or sentence, split on case changes and non-letters and reduced to
    /// their singular (`InvoiceLines` and "invoice lines" → `invoice`, `line`); single letters
    /// left out.
    static func words(in text: String) -> Set<String> {
        Set(NameWords.ofIdentifier(text).filter { $0.count >= 2 })
    }
}
