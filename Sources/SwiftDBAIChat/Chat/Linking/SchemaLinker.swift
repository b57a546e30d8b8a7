import Foundation
import SwiftDBAI

/// Links a question to the schema: the tables it names ("invoice lines" → `InvoiceLine`), the
/// stored values it quotes or capitalises (`'Jazz'` → `Genre.Name`), the foreign-key columns it
/// names ("support rep" → `Customer.SupportRepId` → `Employee`), and the joins that connect them.
///
/// Small models mostly fail by inventing a table or a join; the ``ChatEngine`` uses a link to ask
/// again with only the linked tables and these facts after such a failure.
struct SchemaLinker: Sendable {
    /// What a question links to.
    struct Link: Sendable, Hashable {
        /// Linked tables, in the order they were found, then the tables the joins pass through.
        var tables: [String]
        var values: [ValueMatch]
        var references: [JoinCondition]
        var joins: [JoinCondition]

        /// One line per fact, for a prompt.
        var hints: [String] {
            var lines: [String] = []
            var columnsByValue: [(value: String, columns: [String])] = []
            for match in values {
                let column = "\(match.table).\(match.column)"
                if let index = columnsByValue.firstIndex(where: { $0.value == match.value }) {
                    columnsByValue[index].columns.append(column)
                } else {
                    columnsByValue.append((match.value, [column]))
                }
            }
            for (value, columns) in columnsByValue {
                lines.append("\(SQLTokens.literal(value)) is a value of \(columns.joined(separator: " and of ")).")
            }
            for reference in references {
                lines.append("\(reference.table).\(reference.column) refers to \(reference.referencedTable).\(reference.referencedColumn).")
            }
            if !joins.isEmpty {
                lines.append("Join: " + joins.map(\.description).joined(separator: ", ") + ".")
            }
            return lines
        }
    }

    let schema: DatabaseSchema

    /// Phrases of a question that may be stored values: quoted text, and runs of capitalised
    /// words (or words with a slash, like AC/DC) after the first word. At most `limit`.
    static func candidateValues(in question: String, limit: Int = 6) -> [String] {
        var phrases: [String] = []
        var rest = ""
        var quote: Character?
        var quoted = ""
        for character in question {
            if let open = quote {
                if character == open {
                    phrases.append(quoted)
                    quoted = ""
                    quote = nil
                    rest.append(" | ")
                } else {
                    quoted.append(character)
                }
            } else if character == "'" || character == "\"", rest.last.map({ !$0.isLetter }) ?? true {
                quote = character
            } else {
                rest.append(character)
            }
        }
        var run: [String] = []
        let words = rest.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        for (index, word) in words.enumerated() {
            let trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: "?,.!:;()"))
            let capitalised = trimmed.first?.isUppercase ?? false
            if index > 0, word != "|", capitalised || trimmed.contains("/") {
                run.append(trimmed)
                if trimmed != word { phrases.append(run.joined(separator: " ")); run = [] }
            } else if !run.isEmpty {
                phrases.append(run.joined(separator: " "))
                run = []
            }
        }
        if !run.isEmpty { phrases.append(run.joined(separator: " ")) }
        var unique: [String] = []
        for phrase in phrases where phrase.count > 1 && !unique.contains(phrase) {
            unique.append(phrase)
        }
        return Array(unique.prefix(limit))
    }

    /// Tables whose name occurs in the question as words ("media types" → `MediaType`).
    func mentionedTables(in question: String) -> [String] {
        let words = NameWords.ofText(question)
        return schema.tables.filter { !NameWords.positions(of: NameWords.ofIdentifier($0.name), in: words).isEmpty }.map(\.name)
    }

    /// Links a question, given the stored values found for its candidate phrases.
    ///
    /// A value found in several columns keeps only the best places: a column of a table named
    /// just before the phrase ("the album 'Let There Be Rock'"), then of a table the question
    /// names, then a `Name` or `Title` column.
    func link(_ question: String, foundValues: [ValueMatch]) -> Link {
        var tables = mentionedTables(in: question)
        var values: [ValueMatch] = []
        for phrase in Set(foundValues.map(\.phrase)).sorted() {
            let places = foundValues.filter { $0.phrase == phrase }
            let ranked = places.map { (match: $0, rank: rank(of: $0, in: question, mentioned: tables)) }
            let best = ranked.map(\.rank).max() ?? 0
            values += ranked.filter { $0.rank == best }.map(\.match)
        }
        values.sort { (question.range(of: $0.phrase)?.lowerBound ?? question.endIndex) < (question.range(of: $1.phrase)?.lowerBound ?? question.endIndex) }
        for match in values where values.filter({ $0.phrase == match.phrase }).count == 1 {
            if !tables.contains(match.table) { tables.append(match.table) }
        }
        let references = namedReferences(in: question, tables: tables)
        for reference in references where !tables.contains(reference.referencedTable) {
            tables.append(reference.referencedTable)
        }
        let joins = JoinPath.connecting(tables, in: schema)
        for join in joins {
            for table in [join.table, join.referencedTable] where !tables.contains(table) { tables.append(table) }
        }
        return Link(tables: tables, values: values, references: references, joins: joins)
    }

    private func rank(of match: ValueMatch, in question: String, mentioned: [String]) -> Int {
        var rank = 0
        if let range = question.range(of: match.phrase) {
            let before = NameWords.ofText(String(question[..<range.lowerBound])).suffix(3)
            if !NameWords.positions(of: NameWords.ofIdentifier(match.table), in: Array(before)).isEmpty { rank += 4 }
        }
        if mentioned.contains(match.table) { rank += 2 }
        if ["name", "title"].contains(match.column.lowercased()) { rank += 1 }
        return rank
    }

    /// Foreign-key columns of linked tables named in the question by two or more words
    /// ("support rep" → `Customer.SupportRepId`), when their name does not already say the
    /// referenced table.
    private func namedReferences(in question: String, tables: [String]) -> [JoinCondition] {
        let words = NameWords.ofText(question)
        var references: [JoinCondition] = []
        for name in tables {
            guard let table = schema.table(named: name) else { continue }
            for key in table.foreignKeys where key.columns.count == 1 {
                let columnWords = NameWords.ofIdentifier(key.columns[0]).filter { $0 != "id" }
                let targetWords = NameWords.ofIdentifier(key.referencedTable)
                guard columnWords.count >= 2, columnWords != targetWords,
                      !NameWords.positions(of: columnWords, in: words).isEmpty,
                      let referenced = schema.table(named: key.referencedTable) else { continue }
                references.append(JoinCondition(
                    table: table.name, column: key.columns[0], referencedTable: referenced.name,
                    referencedColumn: key.referencedColumns.first ?? referenced.primaryKey.first ?? "rowid"))
            }
        }
        return references
    }
}
