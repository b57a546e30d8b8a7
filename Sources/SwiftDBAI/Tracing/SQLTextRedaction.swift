/// SQL text with its values taken out, for traces: each string, blob and number literal becomes
/// `?` and comments are dropped, while keywords, identifiers (quoted ones too) and parameters
/// stay. `SELECT * FROM users WHERE email = 'a@b.c' LIMIT 10` becomes
/// `SELECT * FROM users WHERE email = ? LIMIT ?`.
///
/// It scans the text as SQLite's tokenizer does for the parts it replaces; it decides nothing
/// about what a statement may do (SQLite's compiler does that).
package enum SQLTextRedaction {
    /// `sql` without its literal values and comments.
    package static func redacted(_ sql: String) -> String {
        // Most statements with parameters have nothing to take out: they are returned as they are.
        let plain = sql.utf8.withContiguousStorageIfAvailable { !$0.contains(where: mayStartLiteralOrComment) } ?? false
        if plain { return sql }
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let previous = output.last
            switch byte {
            case UInt8(ascii: "'"):
                index = quotedEnd(bytes, from: index, closing: byte)
                output.append(UInt8(ascii: "?"))
            case _ where byte | 0x20 == UInt8(ascii: "x") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "'")
                && !isIdentifierByte(previous):
                // A blob literal, X'…'.
                index = quotedEnd(bytes, from: index + 1, closing: UInt8(ascii: "'"))
                output.append(UInt8(ascii: "?"))
            case UInt8(ascii: "\""), UInt8(ascii: "`"):
                let end = quotedEnd(bytes, from: index, closing: byte)
                output.append(contentsOf: bytes[index..<end])
                index = end
            case UInt8(ascii: "["):
                let end = (bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "]")) ?? bytes.count - 1) + 1
                output.append(contentsOf: bytes[index..<min(end, bytes.count)])
                index = end
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                index = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                appendSpace(&output)
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                index = min(end + 2, bytes.count)
                appendSpace(&output)
            // A number; not the digits of an identifier or of a parameter `?NNN`.
            case _ where isDigit(byte) && !isIdentifierByte(previous) && previous != UInt8(ascii: "?"),
                UInt8(ascii: ".") where index + 1 < bytes.count && isDigit(bytes[index + 1]) && !isIdentifierByte(previous):
                index = numberEnd(bytes, from: index)
                output.append(UInt8(ascii: "?"))
            default:
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The index after a literal or identifier quoted by `closing` (doubled inside), or the end.
    private static func quotedEnd(_ bytes: [UInt8], from start: Int, closing: UInt8) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == closing {
                if index + 1 < bytes.count, bytes[index + 1] == closing {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    /// The index after a number: digits, a fraction, an exponent, or a hexadecimal `0x…`.
    private static func numberEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if isIdentifierByte(byte) || byte == UInt8(ascii: ".") {
                index += 1
            } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"),
                      index > start, bytes[index - 1] | 0x20 == UInt8(ascii: "e"), !isHexadecimal(bytes, start) {
                index += 1
            } else {
                break
            }
        }
        return index
    }

    private static func isHexadecimal(_ bytes: [UInt8], _ start: Int) -> Bool {
        start + 1 < bytes.count && bytes[start] == UInt8(ascii: "0") && bytes[start + 1] | 0x20 == UInt8(ascii: "x")
    }

    private static func appendSpace(_ output: inout [UInt8]) {
        if let last = output.last, last != UInt8(ascii: " "), last != UInt8(ascii: "\n") { output.append(UInt8(ascii: " ")) }
    }

    /// A byte that can begin what ``redacted(_:)`` replaces or must skip whole: a quote, a
    /// bracket, a comment's first character, a digit or a decimal point.
    private static func mayStartLiteralOrComment(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "-"), UInt8(ascii: "/"),
            UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Letters, digits, `_`, `$` and any byte of a non-ASCII character: what an identifier holds.
    private static func isIdentifierByte(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }
}
