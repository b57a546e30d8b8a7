import SwiftDBAI
import SwiftDBAIChat

/// Ranks the tables and views whose names or descriptions, or whose columns' names or
/// descriptions, match some words: the way from a large schema's names to the few tables worth
/// describing in full.
///
/// Words are compared as identifiers are split and reduced (`InvoiceLine`, `invoice_line` and
/// "invoice lines" all give `invoice`, `line`); a word of four letters or more also matches the
/// start of a longer one (`cust` does not, `custom` matches `customer`). A table scores for each
/// word it matches, most for its own name, then its description, then its columns; tables
/// matching more of the words rank first.
struct SchemaSearch: Sendable {
    /// The words searched for, reduced.
    let words: [String]

    init(_ text: String) {
        var seen = Set<String>()
        words = NameWords.ofText(text).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The tables that match at least one word, best first, each with its matching columns.
    func rank(_ tables: [TableSchema]) -> [CatalogEntry] {
        guard !words.isEmpty else { return [] }
        var scored: [(entry: CatalogEntry, score: Double, order: Int)] = []
        for (order, table) in tables.enumerated() {
            let nameWords = Self.identifierWords(table.name)
            let descriptionWords = table.description.map { Set(NameWords.ofText($0)) } ?? []
            var score = 0.0
            var matchedWords = 0
            var matchedColumns = Set<String>()
            for word in words {
                var wordScore = 0.0
                if nameWords.contains(word) { wordScore += 4 } else if Self.prefixMatch(word, nameWords) { wordScore += 3 }
                if descriptionWords.contains(word) { wordScore += 3 } else if Self.prefixMatch(word, descriptionWords) { wordScore += 1.5 }
                var columnScore = 0.0
                for column in table.columns {
                    let columnWords = Self.identifierWords(column.name)
                    let columnDescription = column.description.map { Set(NameWords.ofText($0)) } ?? []
                    var matched = 0.0
                    if columnWords.contains(word) { matched = 2 } else if Self.prefixMatch(word, columnWords) { matched = 1.5 }
                    if columnDescription.contains(word) { matched = max(matched, 1) }
                    if matched > 0 { matchedColumns.insert(column.name) }
                    columnScore = max(columnScore, matched)
                }
                wordScore += columnScore
                if wordScore > 0 { matchedWords += 1 }
                score += wordScore
            }
            guard score > 0 else { continue }
            // Covering more of the words counts for more than matching one word many times.
            score += Double(matchedWords * matchedWords) * 2
            let columns = table.columns.map(\.name).filter(matchedColumns.contains)
            scored.append((CatalogEntry(table, matchedColumns: columns), score, order))
        }
        return scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.order < $1.order }.map(\.entry)
    }

    private static func identifierWords(_ name: String) -> Set<String> {
        Set(NameWords.ofIdentifier(name).map(NameWords.stem))
    }

    private static func prefixMatch(_ word: String, _ candidates: Set<String>) -> Bool {
        guard word.count >= 4 else { return false }
        return candidates.contains { $0.count > word.count && $0.hasPrefix(word) }
    }
}
