import Foundation
import SwiftDBAI

/// Picks the examples most like a question: those that share the most telling words with it.
///
/// Words are compared as ``NameWords`` reduces them (case, plurals); words that say little
/// (`the`, `how`, `many`, …) are left out, and a word counts more the fewer examples use it, so
/// "refunds" weighs more than "customers" in a shop's examples. Examples that share no word
/// with the question are not picked.
struct ExampleRetriever: Sendable {
    let examples: [ChatExample]
    /// The words of each example's question.
    private let words: [Set<String>]
    /// How much a word tells, by word: rarer among the examples is more.
    private let weights: [String: Double]

    init(examples: [ChatExample]) {
        self.examples = examples
        words = examples.map { Self.words(of: $0.question) }
        var counts: [String: Int] = [:]
        for set in words {
            for word in set { counts[word, default: 0] += 1 }
        }
        let total = Double(max(1, examples.count))
        weights = counts.mapValues { 1 + log(total / Double($0)) }
    }

    /// At most `limit` examples, the most like the question first; ties keep the order given.
    func examples(for question: String, limit: Int) -> [ChatExample] {
        guard limit > 0, !examples.isEmpty else { return [] }
        let asked = Self.words(of: question)
        let scored = examples.indices.compactMap { index -> (index: Int, score: Double)? in
            let shared = words[index].intersection(asked)
            guard !shared.isEmpty else { return nil }
            return (index, shared.reduce(0) { $0 + (weights[$1] ?? 1) })
        }
        let ranked = scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        return ranked.prefix(limit).map { examples[$0.index] }
    }

    /// The telling words of a question.
    static func words(of text: String) -> Set<String> {
        Set(NameWords.ofText(text).filter { $0.count >= 2 && !ignoredWords.contains($0) })
    }

    /// Words too common in questions to say what one is about.
    private static let ignoredWords: Set<String> = [
        "a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "is", "are", "was",
        "were", "be", "been", "do", "doe", "did", "have", "ha", "had", "how", "many", "much", "what", "which", "who",
        "whom", "when", "where", "why", "that", "this", "these", "those", "there", "their", "them", "they", "it", "its",
        "we", "our", "us", "me", "my", "you", "your", "i", "show", "list", "give", "find", "tell", "get", "all", "each",
        "every", "any", "per", "as", "than", "then", "so", "if", "not", "no", "only", "also", "just", "please",
    ]
}
