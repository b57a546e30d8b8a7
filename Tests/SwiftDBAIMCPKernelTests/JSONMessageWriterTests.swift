import Foundation
import MCP
@testable import SwiftDBAIMCPKernel
import Testing

/// The hand-written JSON writer of the hot path: compact, keys sorted, every string escaped so
/// that the line stays one line, and what it writes parses back to the same value.
@Suite("JSON message writer")
struct JSONMessageWriterTests {
    private func text(_ value: Value) -> String {
        String(decoding: JSONMessageWriter.data(value), as: UTF8.self)
    }

    @Test("values are written compactly, object keys sorted", arguments: [
        (Value.null, "null"),
        (.bool(true), "true"),
        (.int(-7), "-7"),
        (.double(2), "2.0"),
        (.double(-0.0), "-0.0"),
        (.double(-0.5), "-0.5"),
        (.double(1e20), "1e+20"),
        (.double(.nan), "null"),
        (.double(.infinity), "null"),
        (.array([.int(1), .string("a")]), #"[1,"a"]"#),
        (.object(["b": .int(2), "a": .object(["d": .null, "c": .bool(false)])]), #"{"a":{"c":false,"d":null},"b":2}"#),
    ])
    func values(value: Value, expected: String) {
        #expect(text(value) == expected)
    }

    @Test("strings: quotes, backslashes and every control character escaped; other text as UTF-8")
    func strings() {
        #expect(text(.string("\"\\\n\r\t")) == #""\"\\\n\r\t""#)
        #expect(text(.string("\u{0}\u{1}\u{1F}\u{08}\u{0C}")) == #""\u0000\u0001\u001f\u0008\u000c""#)
        #expect(text(.string("é 中 😀 \u{2028} /")) == "\"é 中 😀 \u{2028} /\"")
        for scalar in 0..<0x20 {
            let written = JSONMessageWriter.data(.string(String(UnicodeScalar(UInt8(scalar)))))
            #expect(!written.contains(0x0A) && !written.contains(0x0D), "U+\(scalar) kept a line break")
        }
    }

    @Test("size(of:) counts exactly what is written, and never less than the SDK's encoder writes")
    func sizes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var values: [Value] = [
            .null, .bool(true), .bool(false), .int(0), .int(-1), .int(9), .int(10), .int(-10), .int(Int.max), .int(Int.min),
            .double(2), .double(-2), .double(-0.0), .double(0.1), .double(-1e-7), .double(1e15), .double(999_999_999_999_999), .double(1e300),
            .double(.nan), .double(-.infinity), .string(""), .string("a\"b\\c/d\u{8}\u{C}\n\r\t\u{1}\u{7F}é🦜\u{2028}"),
            .data(mimeType: "image/png", Data([0, 1, 2, 3])), .data(mimeType: nil, Data()), .array([]), .object([:]),
            .array([.int(1), .null, .array([.string("x")])]),
            .object(["b": .int(2), "é\n": .object(["d": .null, "c": .double(1.5)])]),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &generator)))
            }
            values.append(.object([String(scalars): .array([.string(String(scalars)), .double(Double(Int.random(in: -999...999)) / 8)])]))
        }
        for value in values {
            #expect(JSONMessageWriter.size(of: value) == JSONMessageWriter.data(value).count, "\(value)")
            // (The SDK's encoder refuses NaN and infinities; ours writes null.)
            if let encoded = try? encoder.encode(value) { #expect(JSONMessageWriter.size(of: value) >= encoded.count, "\(value)") }
        }
    }

    @Test("data values become data: URLs")
    func dataValues() {
        #expect(text(.data(mimeType: "image/png", Data([1, 2, 3]))) == #""data:image/png;base64,AQID""#)
        #expect(text(.data(mimeType: nil, Data())) == #""data:application/octet-stream;base64,""#)
    }

    @Test("what is written parses back to the same value", arguments: [
        Value.object([
            "text": .string("line 1\nline 2\t\"quoted\" \\ \u{7} é 😀"),
            "numbers": .array([.int(0), .int(.min), .int(.max), .double(0.1), .double(-1.25e-7), .double(123456.5)]),
            "nested": .object(["empty": .object([:]), "list": .array([]), "flag": .bool(true), "nothing": .null]),
        ]),
        .array((0..<50).map { .string(String(repeating: "\u{1}x", count: $0)) }),
    ])
    func roundTrip(value: Value) throws {
        #expect(try JSONMessageParser.parse(JSONMessageWriter.data(value)) == value)
    }
}
