import SwiftDBAI

/// What a question's words point to in the data, found from column profiles without a model
/// call or a query:
/// - stored categories it names in any case and number: "library assistants" →
///   `'Library Assistant'` in `staff.job_title`, which the capitalised-phrase search misses;
/// - columns it names in the negative that are often NULL: "tracks without a composer" →
///   `Track.Composer`, NULL in 977 of 3,503 rows in Chinook, so the model can tell "not yet
///   paid" from "paid".
enum ColumnMentions {
    /// The stored categories the question names, as value matches whose phrase is the question's
    /// own text. A value inside a longer matched value's words is left out, and so are
    /// one-word values that are common words or the name of a table or column.
    static func categoryMatches(in question: String, profiles: [ColumnProfile], schema: DatabaseSchema) -> [ValueMatch] {
        let words = questionWords(question)
        let stems = words.map(\.stem)
        let names = Set(schema.tables.flatMap { table in
            NameWords.ofIdentifier(table.name) + table.columns.flatMap { NameWords.ofIdentifier($0.name) }
        })
        var found: [(match: ValueMatch, span: Range<Int>)] = []
        for profile in profiles {
            for value in profile.categories ?? [] {
                let valueWords = NameWords.ofText(value)
                guard valueWords.contains(where: { $0.count >= 3 && !$0.allSatisfy(\.isNumber) }) else { continue }
                if valueWords.count == 1, commonWords.contains(valueWords[0]) || names.contains(valueWords[0]) { continue }
                for start in NameWords.positions(of: valueWords, in: stems) {
                    let span = start..<(start + valueWords.count)
                    let phrase = String(question[words[span.lowerBound].range.lowerBound..<words[span.upperBound - 1].range.upperBound])
                    found.append((ValueMatch(phrase: phrase, table: profile.table, column: profile.column, value: value), span))
                }
            }
        }
        let kept = found.filter { candidate in
            !found.contains { other in
                other.span.count > candidate.span.count && other.span.clamped(to: candidate.span) == candidate.span
            }
        }
        var matches: [ValueMatch] = []
        for (match, _) in kept where !matches.contains(match) { matches.append(match) }
        return Array(matches.prefix(maxCategoryMatches))
    }

    /// One line for each column that the question names in the negative and that is NULL in
    /// some rows (at most ``maxNullHints``, columns of tables the question names first; negated as
    /// in "unpaid", "not yet shipped", "without"): "tracks without a composer" → `Track.Composer
    /// is NULL in 977 of 3503 rows.` Keys and generic name words (`id`, `date`, `on`) do not count. Only negated
    /// words count: "paid for a copy" or "hosted" named with a NULL count led a small model to a
    /// NULL filter the question did not ask for.
    static func nullHints(for question: String, profiles: [ColumnProfile], schema: DatabaseSchema) -> [String] {
        let asked = negatedWords(in: questionWords(question).map(\.stem))
        let tables = Set(SchemaLinker(schema: schema).mentionedTables(in: question).map(SQLIdentifier.foldCase))
        let named = profiles.filter { profile in
            guard profile.nullCount > 0, let column = schema.table(named: profile.table)?.column(named: profile.column),
                  column.primaryKeyPosition == nil
            else { return false }
            let columnWords = NameWords.ofIdentifier(profile.column).filter { $0.count >= 4 && !genericColumnWords.contains($0) }
            return columnWords.contains { !asked.isDisjoint(with: variants(of: $0)) }
        }
        let ordered = named.filter { tables.contains(SQLIdentifier.foldCase($0.table)) }
            + named.filter { !tables.contains(SQLIdentifier.foldCase($0.table)) }
        return ordered.prefix(maxNullHints).map { profile in
            "\(SQLIdentifier.quotedIfNeeded(profile.table)).\(SQLIdentifier.quotedIfNeeded(profile.column)) is NULL in "
                + "\(profile.nullCount) of \(profile.rowCount) rows."
        }
    }

    static let maxCategoryMatches = 6
    static let maxNullHints = 3

    /// A word of the question, its stem (`NameWords.stem`) and where it is.
    private struct Word {
        var stem: String
        var range: Range<String.Index>
    }

    private static func questionWords(_ question: String) -> [Word] {
        question.split { !($0.isLetter || $0.isNumber) }.map { Word(stem: NameWords.stem(String($0)), range: $0.startIndex..<$0.endIndex) }
    }

    /// The words a question negates, with their forms: a word with a negating prefix
    /// (`unpaid` → `paid`), and the two words after `no`, `not`, `never`, `without` or `missing`
    /// ("never been borrowed" → `borrowed`, `borrow`).
    private static func negatedWords(in words: [String]) -> Set<String> {
        var negated: Set<String> = []
        for (index, word) in words.enumerated() {
            for prefix in ["un", "non"] where word.hasPrefix(prefix) && word.count - prefix.count >= 4 {
                negated.formUnion(variants(of: String(word.dropFirst(prefix.count))))
            }
            if negators.contains(word) {
                for next in words[(index + 1)..<min(words.count, index + 3)] { negated.formUnion(variants(of: next)) }
            }
        }
        return negated
    }

    private static let negators: Set<String> = ["no", "not", "never", "without", "missing"]

    /// The word, and without `-ed` (`returned` → `return`).
    private static func variants(of word: String) -> Set<String> {
        word.hasSuffix("ed") && word.count >= 6 ? [word, String(word.dropLast(2))] : [word]
    }

    /// Words of column names too general to say what a question is about.
    private static let genericColumnWords: Set<String> = [
        "date", "time", "name", "type", "code", "number", "value", "amount", "total", "count", "created", "updated",
    ]

    /// One-word values too common in questions to be taken as the value.
    private static let commonWords: Set<String> = [
        "all", "and", "any", "are", "average", "both", "count", "each", "every", "first", "for", "from", "give", "has",
        "have", "how", "last", "least", "less", "list", "many", "more", "most", "much", "name", "new", "none", "not",
        "number", "one", "other", "our", "per", "show", "the", "their", "them", "they", "this", "total", "two", "unknown",
        "what", "when", "where", "which", "who", "with", "yes",
    ]
}
