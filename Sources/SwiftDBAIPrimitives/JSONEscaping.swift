/// What text takes inside a JSON string as dbai-mcp writes it: `\"`, `\\`, `\n`, `\r` and `\t`
/// in two bytes, every other control character as `\u00XX` (six), every other byte as itself.
/// The one measure of the package: result budgets, clipping, export chunks and the Markdown
/// rendering all count with it, so that what they count is what crosses the wire.
package enum JSONEscaping {
    /// The bytes one byte of UTF-8 text takes inside a JSON string.
    @inlinable
    package static func size(of byte: UInt8) -> Int {
        switch byte {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09: 2
        case 0..<0x20: 6
        default: 1
        }
    }

    /// The bytes of UTF-8 text as a JSON string, its two quotes included.
    @inlinable
    package static func stringSize(of text: String) -> Int {
        var text = text
        return text.withUTF8 { stringSize(of: $0) }
    }

    /// The bytes of UTF-8 text as a JSON string, its two quotes included.
    @inlinable
    package static func stringSize(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = bytes.count + 2
        // Only quotes, backslashes and control characters take more than themselves.
        for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            count += size(of: byte) - 1
        }
        return count
    }
}
