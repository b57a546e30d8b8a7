/// Helpers for SQLite identifiers: quoting and SQLite's case-insensitive comparison.
package enum SQLIdentifier {
    /// Returns the identifier quoted with double quotes, inner quotes doubled.
    ///
    /// ```swift
    /// SQLIdentifier.quote("Order Details") // "\"Order Details\""
    /// ```
    package static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The name as SQL must write it: bare when it is a plain identifier (ASCII letters, digits
    /// and `_`, not starting with a digit), else quoted (`"Order Details"`).
    package static func quotedIfNeeded(_ name: String) -> String {
        let plain = name.first.map { $0 == "_" || $0.isASCII && $0.isLetter } == true
            && name.allSatisfy { $0 == "_" || $0.isASCII && ($0.isLetter || $0.isNumber) }
        return plain ? name : quote(name)
    }

    /// Folds ASCII letters to lower case, as SQLite does when it compares identifiers.
    ///
    /// SQLite folds only ASCII: `Ä` and `ä` name different tables.
    package static func foldCase(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        return String(decoding: name.utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// True when two identifiers name the same object for SQLite.
    package static func same(_ lhs: String, _ rhs: String) -> Bool {
        foldCase(lhs) == foldCase(rhs)
    }
}
