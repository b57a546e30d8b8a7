import Foundation
import MCP

/// A small, strict JSON parser that produces the SDK's `Value` directly from UTF-8 bytes.
///
/// The server's hot path (`tools/call`) uses it instead of `JSONDecoder` + `Value.init(from:)`:
/// the SDK's decoder checks every string against a `data:` URL regex it compiles each time,
/// which dominated the cost of a call. Strings stay strings here. Nesting deeper than
/// ``maximumDepth`` is refused rather than risking the stack.
package struct JSONMessageParser {
    /// Why the bytes are not one JSON value.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var offset: Int
        package var reason: String
        package var description: String { "Invalid JSON at byte \(offset): \(reason)" }
    }

    package static let maximumDepth = 256

    /// Parses one JSON value that spans the whole input (white space around it allowed).
    ///
    /// - Throws: ``Failure``.
    package static func parse(_ data: Data) throws(Failure) -> Value {
        try parseMessage(data).value
    }

    /// One message, with the exact text of its `id` members.
    package struct Message {
        /// The value.
        package var value: Value
        /// The text of the `id` member of a top-level object, as written (a JSON-RPC id such as
        /// `1.5` or `1e400` is echoed back exactly).
        package var rawID: String?
        /// The texts of the `id` members of the objects of a top-level array, by position.
        package var rawElementIDs: [Int: String]
    }

    /// Parses one JSON value and also returns the exact text of its `id` members.
    ///
    /// - Throws: ``Failure``.
    package static func parseMessage(_ data: Data) throws(Failure) -> Message {
        let result: Result<Message, Failure> = data.withUnsafeBytes { raw in
            var parser = JSONMessageParser(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                parser.skipWhitespace()
                let value = try parser.value(depth: 0)
                parser.skipWhitespace()
                guard parser.index == parser.bytes.count else { throw parser.failure("trailing characters") }
                let text = { (range: Range<Int>) in
                    String(decoding: UnsafeBufferPointer(rebasing: parser.bytes[range]), as: UTF8.self)
                }
                return .success(Message(
                    value: value, rawID: parser.rawID.map(text), rawElementIDs: parser.rawElementIDs.mapValues(text)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Where the value of the top-level object's `id` member lies.
    private var rawID: Range<Int>?
    /// Where the values of the `id` members of a top-level array's objects lie, by position.
    private var rawElementIDs: [Int: Range<Int>] = [:]
    /// The position of the element being parsed when the top-level value is an array.
    private var topLevelElement: Int?

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> Value {
        guard depth < Self.maximumDepth else { throw failure("nesting too deep") }
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count else { throw failure("unexpected end") }
        for (offset, byte) in expected.enumerated() where bytes[index + offset] != byte {
            throw failure("unexpected character")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(Failure) -> Value {
        index += 1
        var members: [String: Value] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            let start = index
            members[key] = try value(depth: depth + 1)
            if key == "id" {
                if depth == 0 { rawID = start..<index }
                if depth == 1, let topLevelElement { rawElementIDs[topLevelElement] = start..<index }
            }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> Value {
        index += 1
        var elements: [Value] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if depth == 0 { topLevelElement = elements.count }
            elements.append(try value(depth: depth + 1))
            if depth == 0 { topLevelElement = nil }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            index += 1
        }
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw failure("unexpected end") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw failure("unpaired surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("unpaired surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid escape") }
                    utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw failure("invalid escape")
                }
            default:
                if byte < 0x20 { throw failure("control character in a string") }
                utf8.append(byte)
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unexpected end") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(Failure) -> Value {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
            throw failure("unexpected character")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw failure("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw failure("expected exponent digits") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        // JSON sets no range: a number beyond Double's becomes an infinity (or zero), as in strtod.
        guard let double = Double(text) else { throw failure("invalid number") }
        return .double(double)
    }
}
