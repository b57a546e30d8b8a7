/// ASCII text helpers for header values: HTTP's tokens are ASCII, and Foundation's case-insensitive
/// comparison, trimming and searching, or even Swift's grapheme-aware `Character`s, cost more than
/// the rest of a request.
enum HTTPText {
    /// The text with ASCII letters in lower case.
    static func lowercased(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: isUppercase) else { return String(text) }
        return String(decoding: lowercased(text.utf8), as: UTF8.self)
    }

    /// The bytes with ASCII letters in lower case.
    static func lowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { isUppercase($0) ? $0 + 0x20 : $0 }
    }

    /// The text without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        Substring(trimmed(text.utf8))
    }

    /// The bytes without leading and trailing spaces and tabs.
    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte)
    }
}
