import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cuts a byte stream into newline-delimited messages, the framing of the MCP stdio transport.
///
/// Feed it chunks as they are read; it hands back every complete line with the `\n` removed,
/// a trailing `\r` stripped, and blank lines (empty, or only JSON whitespace) skipped. Bytes of
/// an unterminated line wait for the next chunk; ``finish()`` returns them at end of input.
///
/// ```swift
/// var lines = LineBuffer()
/// lines.append(chunk) { message in continuation.yield(message) }
/// ```
///
/// The scan never revisits a byte: the waiting partial line never holds a `\n`, so each chunk
/// is searched (with `memchr`) only from where its own scan stopped. A long line costs its
/// copy into the buffer and nothing more, however many chunks it spans.
package struct LineBuffer {
    /// Bytes of a line whose `\n` has not arrived yet. Never contains a `\n`.
    private var partialLine = Data()

    package init() {}

    /// True while bytes of an unterminated line are waiting for their `\n`.
    package var hasPartialLine: Bool { !partialLine.isEmpty }

    /// Adds a chunk of input and calls `body` with each line it completes, in order.
    ///
    /// - Parameters:
    ///   - chunk: Bytes just read. Not retained; the waiting tail is copied.
    ///   - body: Called once per complete, non-blank line, without its line terminator.
    package mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, forEachLine body: (Data) -> Void) {
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
        var lineStart = 0
        while lineStart < chunk.count,
            let found = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), chunk.count - lineStart)
        {
            let newlineIndex = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            let piece = UnsafeBufferPointer(rebasing: chunk[lineStart..<newlineIndex])
            if partialLine.isEmpty {
                if let message = Self.message(in: piece) {
                    body(message)
                }
            } else {
                partialLine.append(piece)
                let completed = partialLine
                partialLine = Data()
                if let message = Self.message(from: completed) {
                    body(message)
                }
            }
            lineStart = newlineIndex + 1
        }
        if lineStart < chunk.count {
            partialLine.append(UnsafeBufferPointer(rebasing: chunk[lineStart...]))
        }
    }

    /// Ends the input: returns the unterminated last line if it holds more than whitespace.
    ///
    /// The buffer is empty afterwards.
    package mutating func finish() -> Data? {
        let remainder = partialLine
        partialLine = Data()
        return Self.message(from: remainder)
    }

    /// The line in `bytes` (without its `\n`) as a message, or `nil` when it is blank.
    private static func message(in bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        var length = bytes.count
        if length > 0, bytes[length - 1] == UInt8(ascii: "\r") {
            length -= 1
        }
        let content = UnsafeBufferPointer(rebasing: bytes[0..<length])
        guard content.contains(where: { !isJSONWhitespace($0) }) else { return nil }
        return Data(buffer: content)
    }

    /// `line` (without its `\n`) as a message, or `nil` when it is blank.
    ///
    /// Shares the storage of `line`: stripping the `\r` slices instead of copying.
    private static func message(from line: Data) -> Data? {
        let content = line.last == UInt8(ascii: "\r") ? line.prefix(line.count - 1) : line
        guard content.contains(where: { !isJSONWhitespace($0) }) else { return nil }
        return content
    }

    /// Space, tab, carriage return or line feed: the insignificant whitespace of JSON.
    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}
