/// Bytes as lowercase hexadecimal text, without Foundation's `String(format:)` (which costs
/// thousands of instructions a byte on Linux): digests on the path of every call.
package enum Hexadecimal {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hexadecimal digits a byte.
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
