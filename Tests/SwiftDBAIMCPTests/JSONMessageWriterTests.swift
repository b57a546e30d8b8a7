import Foundation
import MCP
import Testing
@testable import SwiftDBAIMCP

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
