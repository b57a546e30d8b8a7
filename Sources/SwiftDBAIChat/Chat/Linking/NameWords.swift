import SwiftDBAI

/// Words of identifiers and of questions, reduced so that `InvoiceLine`, `invoice_line` and
/// "invoice lines" compare equal: split at case changes, underscores and punctuation, lower-cased,
/// plural endings removed.
package enum NameWords {
    /// The words of an identifier: `SupportRepId` → `support`, `rep`, `id`.
    package static func ofIdentifier(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            guard character.isLetter || character.isNumber else {
                flush(&current, into: &words)
                previous = nil
                continue
            }
            if let previous, character.isUppercase, previous.isLowercase || previous.isNumber {
                flush(&current, into: &words)
            }
            current.append(character)
            previous = character
        }
        flush(&current, into: &words)
        return words
    }

    /// The words of free text: runs of letters and digits.
    package static func ofText(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber) }.map { stem(String($0)) }
    }

    /// Lower-cased, with a plural ending removed: `countries` → `country`, `albums` → `album`.
    package static func stem(_ word: String) -> String {
        let word = word.lowercased()
        if word.count > 4, word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("sses") || word.hasSuffix("xes") || word.hasSuffix("ches") || word.hasSuffix("shes") {
            return String(word.dropLast(2))
        }
        if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us") {
            return String(word.dropLast())
        }
        return word
    }

    /// Where `needle` occurs as consecutive words of `words`.
    static func positions(of needle: [String], in words: [String]) -> [Int] {
        guard !needle.isEmpty, needle.count <= words.count else { return [] }
        return (0...(words.count - needle.count)).filter { Array(words[$0..<($0 + needle.count)]) == needle }
    }

    private static func flush(_ current: inout String, into words: inout [String]) {
        if !current.isEmpty { words.append(stem(current)) }
        current = ""
    }
}
