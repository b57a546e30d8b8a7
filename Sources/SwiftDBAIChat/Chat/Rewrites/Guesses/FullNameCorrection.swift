import Foundation
import SwiftDBAI

/// Gives a full name where the question asks for one: "Which instructors have never taught a
/// class? Give their full names." answered with `SELECT i.firstName, i.lastName …` becomes
/// `SELECT i.firstName || ' ' || i.lastName AS full_name …`, one column holding each name as a
/// person reads it. Small models list the two name columns side by side.
///
/// Applied when the question says "full name" (or "full names", "full-name", "fullname") and the
/// outer SELECT lists a first-name column (`firstName`, `first_name`, `given_name`,
/// `forename`) directly followed by the last-name column of the same table (`lastName`,
/// `last_name`, `family_name`, `surname`; both bare or both qualified alike, neither aliased).
/// Each such pair becomes one column (`full_name`, then `full_name_2`, …). Not applied to
/// compound SELECTs or when ORDER BY names a result column by its position. Only statements
/// that read are changed. The rewritten statement goes through the classifier and policy like
/// any other.
struct FullNameCorrection: SQLRewriteRule {
    let name = "full_name"
    let kind = SQLRewriteKind.guess

    func doubt(in context: RewriteContext) -> String? {
        "The question asks for full names: one column holding the first and the last name, not two columns."
    }

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let sql = statement.sql
        let question = context.question
        guard Self.asksForFullNames(question) else { return nil }
        let tokens = statement.tokens
        guard tokens.count > 3, tokens[0].isKeyword("select"),
              let from = SQLTokens.topLevelIndex(of: "from", in: tokens),
              ["union", "except", "intersect"].allSatisfy({ SQLTokens.topLevelIndex(of: $0, in: tokens) == nil }),
              !SQLTokens.ordersByPosition(tokens)
        else { return nil }
        let listStart = tokens[1].isKeyword("distinct") || tokens[1].isKeyword("all") ? 2 : 1
        let items = SQLTokens.topLevelParts(of: tokens, from: listStart, to: from)
        var usedNames = Set(tokens.filter(SQLTokens.isName).map { SQLIdentifier.foldCase($0.text) })
        var edits: [SQLTokens.Edit] = []
        var index = 0
        while index + 1 < items.count {
            guard let first = Self.column(items[index], in: tokens), let last = Self.column(items[index + 1], in: tokens),
                  first.qualifier == last.qualifier, let prefix = Self.prefix(of: first.words, ending: Self.firstNameEndings),
                  prefix == Self.prefix(of: last.words, ending: Self.lastNameEndings)
            else {
                index += 1
                continue
            }
            let range = tokens[items[index].lowerBound].range.lowerBound..<tokens[items[index + 1].upperBound - 1].range.upperBound
            let alias = Self.alias(avoiding: usedNames)
            usedNames.insert(alias)
            edits.append(SQLTokens.Edit(range: range, text: "\(first.text) || ' ' || \(last.text) AS \(alias)"))
            index += 2
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// True when the question asks for full names.
    static func asksForFullNames(_ question: String) -> Bool {
        question.range(of: #"\bfull[ -]?names?\b"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    private static let firstNameEndings: [[String]] = [["first", "name"], ["given", "name"], ["forename"], ["fname"]]
    private static let lastNameEndings: [[String]] = [["last", "name"], ["family", "name"], ["surname"], ["lname"]]

    /// A result column that is a bare or qualified column reference with no alias: its text, its
    /// qualifier (case-folded) and the words of its name.
    private static func column(_ item: Range<Int>, in tokens: [SQLTokens.Token]) -> (text: String, qualifier: String?, words: [String])? {
        guard let reference = SQLTokens.columnReference(startingAt: item.lowerBound, in: tokens), reference.name == item.upperBound - 1
        else { return nil }
        let text = tokens[item].map { $0.kind == .quotedIdentifier ? SQLIdentifier.quote($0.text) : $0.text }.joined()
        let qualifier = reference.qualifier.map { SQLIdentifier.foldCase(tokens[$0].text) }
        return (text, qualifier, NameWords.ofIdentifier(tokens[reference.name].text))
    }

    /// The words before one of `endings` (`contact_first_name` → `contact`), or nil when the
    /// name ends in none of them.
    private static func prefix(of words: [String], ending endings: [[String]]) -> [String]? {
        for ending in endings where words.count >= ending.count && Array(words.suffix(ending.count)) == ending {
            return Array(words.dropLast(ending.count))
        }
        return nil
    }

    /// `full_name`, else `full_name_2`, …: the first that is not among `names`.
    private static func alias(avoiding names: Set<String>) -> String {
        var candidate = "full_name"
        var suffix = 1
        while names.contains(candidate) {
            suffix += 1
            candidate = "full_name_\(suffix)"
        }
        return candidate
    }
}
