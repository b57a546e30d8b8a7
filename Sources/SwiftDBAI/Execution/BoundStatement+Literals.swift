import Foundation

extension BoundStatement {
    /// The statement with its positional values written in as SQL literals, for a person to
    /// read or run elsewhere (`?` inside quoted names and strings is left alone). Named
    /// arguments are not written in: the text is returned as it is.
    public var sqlWithLiterals: String {
        guard case .positional(let values) = arguments, !values.isEmpty else { return sql }
        var output = ""
        var remaining = values[...]
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open || (open == "[" && character == "]") { quote = nil }
                output.append(character)
            } else if character == "\"" || character == "'" || character == "`" || character == "[" {
                quote = character
                output.append(character)
            } else if character == "?", let value = remaining.popFirst() {
                output += value.sqlLiteral
            } else {
                output.append(character)
            }
        }
        return output
    }
}

extension SQLValue {
    /// The value as an SQL literal that reads back as the same value: `NULL`, `42`, `1.5`,
    /// `'it''s'`, `X'00ff'`; an infinite real is `9e999` (or `-9e999`).
    public var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real):
            guard real.isFinite else { return real.isNaN ? "NULL" : (real > 0 ? "9e999" : "-9e999") }
            let text = String(real)
            // Swift writes 5.0 as "5.0" and 1e+20 as "1e+20": both read back as reals.
            return text
        case .text(let text):
            // A control character (a NUL, an escape, a C1 control) or a direction override would
            // not survive being printed, or would change what a person reads: `char(N)` instead.
            guard text.unicodeScalars.contains(where: Self.isUnprintable) else {
                return Self.quoted(text)
            }
            var parts: [String] = []
            var run = ""
            for scalar in text.unicodeScalars {
                if Self.isUnprintable(scalar) {
                    if !run.isEmpty { parts.append(Self.quoted(run)) }
                    run = ""
                    parts.append("char(\(scalar.value))")
                } else {
                    run.unicodeScalars.append(scalar)
                }
            }
            if !run.isEmpty { parts.append(Self.quoted(run)) }
            return "(" + parts.joined(separator: " || ") + ")"
        case .blob(let data):
            return Self.hex(data)
        }
    }

    /// `'it''s'`.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A scalar a literal writes as `char(N)`: C0 controls but newline and tab, DEL, C1
    /// controls, and the direction overrides and isolates.
    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7f...0x9f).contains(value)
            || (0x202a...0x202e).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// `X'00ff'`.
    private static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef")
        var hex = "X'"
        hex.reserveCapacity(data.count * 2 + 3)
        for byte in data {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return hex + "'"
    }
}
