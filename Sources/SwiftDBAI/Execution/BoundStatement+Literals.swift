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
            // Control characters (a NUL, an escape) would not survive being printed: their bytes.
            guard text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7f }) else {
                return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            }
            return "CAST(\(Self.hex(Data(text.utf8))) AS TEXT)"
        case .blob(let data):
            return Self.hex(data)
        }
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
