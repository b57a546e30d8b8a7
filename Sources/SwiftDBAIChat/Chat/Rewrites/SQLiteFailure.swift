import Foundation
import SwiftDBAI

/// Why SQLite refused or failed a statement, read once from the error, for the repairs and the
/// model's retry to use. SQLite reports a missing table, column or function and a syntax error
/// all as `SQLITE_ERROR`, with nothing but its message to tell them apart: its text is read here
/// and nowhere else. An error SQLite returned while running keeps its extended result code
/// (``resultCode``) for a repair that needs more than the kinds above.
struct SQLiteFailure: Sendable, Hashable {
    /// What SQLite's message says went wrong.
    enum Kind: Sendable, Hashable {
        /// `no such table: T`.
        case noSuchTable
        /// `no such column: C` or `no such column: Q.C`.
        case noSuchColumn
        /// `no such function: F`.
        case noSuchFunction
        /// `… syntax error`.
        case syntaxError
        /// Anything else.
        case other
    }

    /// What went wrong.
    let kind: Kind
    /// The message, as the error described it.
    let message: String
    /// SQLite's extended result code, for an error SQLite returned while running; nil for a
    /// statement refused while compiling it (the classifier reports those by message).
    let resultCode: Int32?
    /// What the message names after `no such table: ` or `no such column: `, up to the next
    /// space: `T2.Country`, `"Order`, `members`; nil for other kinds.
    let missingName: String?

    /// The failure of an error the executor threw.
    init(_ error: SwiftDBAIError) {
        if case .sqlite(let code, _) = error {
            self.init(message: error.description, resultCode: code)
        } else {
            self.init(message: error.description)
        }
    }

    /// The failure SQLite's `message` describes.
    init(message: String, resultCode: Int32? = nil) {
        self.message = message
        self.resultCode = resultCode
        let named: [(prefix: String, kind: Kind)] = [("no such table: ", .noSuchTable), ("no such column: ", .noSuchColumn)]
        if let (prefix, kind) = named.first(where: { message.contains($0.prefix) }), let range = message.range(of: prefix) {
            self.kind = kind
            missingName = String(message[range.upperBound...].prefix { !$0.isWhitespace })
        } else {
            kind = message.contains("no such function") ? .noSuchFunction : message.contains("syntax error") ? .syntaxError : .other
            missingName = nil
        }
    }

    /// The table a "no such table" error names when it is one plain word (`members`); nil for
    /// `main.t`, quoted or other names, and other errors.
    var missingBareTable: String? { kind == .noSuchTable ? bareName : nil }

    /// The column a "no such column" error names without a qualifier (`member_id`); nil for
    /// `A.C`, quoted or other names, and other errors.
    var missingBareColumn: String? { kind == .noSuchColumn ? bareName : nil }

    /// `("T2", "Country")` when a "no such column" error names `T2.Country`.
    var missingQualifiedColumn: (qualifier: String, column: String)? {
        guard kind == .noSuchColumn, let range = message.range(of: "no such column: ") else { return nil }
        let words = SQLTokens(String(message[range.upperBound...])).tokens.prefix(3)
        guard words.count == 3, words[words.startIndex + 1].text == ".",
              words[words.startIndex].kind != .symbol, words[words.startIndex + 2].kind != .symbol else { return nil }
        return (words[words.startIndex].text, words[words.startIndex + 2].text)
    }

    /// The last part of the missing name, unquoted: `Country` of `T2.Country`, `Order` of
    /// `"Order`; nil for other kinds.
    var missingNameLastPart: String? {
        guard let missingName else { return nil }
        return missingName.split(separator: ".").last.map(String.init)?
            .trimmingCharacters(in: CharacterSet(charactersIn: "\"'`[]")) ?? ""
    }

    /// The missing name when it is one plain word (a trailing period dropped).
    private var bareName: String? {
        guard var name = missingName?[...] else { return nil }
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, !name.contains("."), name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return String(name)
    }
}
