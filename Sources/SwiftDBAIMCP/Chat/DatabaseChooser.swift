import Foundation
import SwiftDBAI

/// Picks the database a question is about, when `ask` is called without `database` and the
/// server serves several: the database whose name, description, tables and columns the question's
/// words match best. A tie (or no match at all) is not guessed: the caller is asked to name one.
struct DatabaseChooser: Sendable {
    /// What one database offers to match against.
    struct Candidate: Sendable {
        let name: String
        let description: String?
        let schema: DatabaseSchema
    }

    /// The name of the best match, or nil when no database stands out.
    func choose(_ question: String, among candidates: [Candidate]) -> String? {
        let words = Set(Self.words(in: question))
        guard !words.isEmpty else { return nil }
        let scored = candidates.map { candidate in (candidate.name, score(words, candidate)) }
            .sorted { $0.1 > $1.1 }
        guard let best = scored.first, best.1 > 0 else { return nil }
        if scored.count > 1, scored[1].1 == best.1 { return nil }
        return best.0
    }

    private func score(_ words: Set<String>, _ candidate: Candidate) -> Double {
        var score = 0.0
        let nameWords = Self.words(in: candidate.name)
        if !nameWords.isEmpty, nameWords.allSatisfy(words.contains) { score += 10 }
        for table in candidate.schema.tables {
            let tableWords = Self.words(in: table.name)
            if !tableWords.isEmpty, tableWords.allSatisfy(words.contains) { score += 3 }
            for column in table.columns {
                let columnWords = Self.words(in: column.name).filter { !Self.genericColumnWords.contains($0) }
                if !columnWords.isEmpty, columnWords.allSatisfy(words.contains) { score += 1 }
            }
            if let description = table.description {
                score += 0.25 * Double(Set(Self.words(in: description)).intersection(words).count)
            }
        }
        if let description = candidate.description {
            score += 0.5 * Double(Set(Self.words(in: description)).intersection(words).count)
        }
        return score
    }

    /// Column-name words that say nothing about the domain.
    private static let genericColumnWords: Set<String> = ["id", "name", "date", "type", "code", "description", "created", "updated"]

    /// Words that carry no subject.
    private static let stopWords: Set<String> = [
        "the", "a", "an", "of", "in", "on", "for", "to", "and", "or", "by", "with", "what", "which", "who", "how", "many",
        "much", "is", "are", "was", "were", "do", "does", "did", "show", "list", "give", "me", "all", "each", "per", "top",
        "most", "least", "average", "total", "number", "count", "from", "that", "this", "there", "their", "its", "be",
    ]

    /// Lowercased words, split at non-letters and at camelCase boundaries, singular (`Tracks`,
    /// `track_id` and `TrackId` all give `track`), stop words left out.
    static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in text {
            if character.isLetter || character.isNumber {
                if character.isUppercase, previousWasLower, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                current.append(character)
                previousWasLower = character.isLowercase
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { singular($0.lowercased()) }.filter { $0.count > 1 && !stopWords.contains($0) }
    }

    private static func singular(_ word: String) -> String {
        if word.hasSuffix("ies"), word.count > 4 { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("ses") || word.hasSuffix("xes") { return String(word.dropLast(2)) }
        if word.hasSuffix("s"), !word.hasSuffix("ss"), word.count > 3 { return String(word.dropLast()) }
        return word
    }
}
