import Foundation
import MCP
@testable import SwiftDBAIMCPKernel
import Testing

/// The hand-written JSON parser of the hot path: what it accepts, what it refuses and where, and
/// the exact text of ids it keeps.
@Suite("JSON message parser")
struct JSONMessageParserTests {
    private func parse(_ text: String) throws(JSONMessageParser.Failure) -> Value {
        try JSONMessageParser.parse(Data(text.utf8))
    }

    @Test("values of every kind parse to the SDK's Value", arguments: [
        ("null", Value.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("-42", .int(-42)),
        ("9223372036854775807", .int(.max)),
        ("1.5", .double(1.5)),
        ("-2.5e3", .double(-2500)),
        ("1E-2", .double(0.01)),
        ("\"text\"", .string("text")),
        (" \t\r\n[1, \"a\", null] \n", .array([.int(1), .string("a"), .null])),
        ("{}", .object([:])),
        ("[]", .array([])),
        (#"{"a": {"b": [true, {"c": 1}]}}"#, .object(["a": .object(["b": .array([.bool(true), .object(["c": .int(1)])])])])),
        (#"{"k": 1, "k": 2}"#, .object(["k": .int(2)])),
    ])
    func values(text: String, expected: Value) throws {
        #expect(try parse(text) == expected)
    }

    @Test("numbers beyond Int become doubles, beyond Double infinities, as strtod would")
    func largeNumbers() throws {
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("1e400") == .double(.infinity))
        #expect(try parse("-1e400") == .double(-.infinity))
        #expect(try parse("1e-400") == .double(0))
    }

    @Test("escapes: the short ones, \\u, and surrogate pairs", arguments: [
        (#""\" \\ \/ \b \f \n \r \t""#, "\" \\ / \u{08} \u{0C} \n \r \t"),
        (#""\u0041\u00e9\u4E2D""#, "Aé中"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\u0000""#, "\u{0}"),
        (#""plain, é and 😀 as UTF-8""#, "plain, é and 😀 as UTF-8"),
    ])
    func escapes(text: String, expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    @Test("malformed input fails with the reason and the offset of the fault", arguments: [
        ("", 0, "unexpected end"),
        ("{", 1, "expected a member name"),
        (#"{"a" 1}"#, 5, "expected ':'"),
        (#"{"a": 1 "b": 2}"#, 8, "expected ',' or '}'"),
        ("[1 2]", 3, "expected ',' or ']'"),
        ("[1,", 3, "unexpected end"),
        ("tru", 0, "unexpected end"),
        ("nul!", 0, "unexpected character"),
        ("01", 1, "trailing characters"),
        ("1.", 2, "expected digits after '.'"),
        ("1e+", 3, "expected exponent digits"),
        ("-", 1, "unexpected character"),
        ("+1", 0, "unexpected character"),
        ("\"abc", 4, "unterminated string"),
        ("\"a\u{01}b\"", 2, "control character in a string"),
        (#""\x""#, 3, "invalid escape"),
        (#""\u12G4""#, 5, #"invalid \u escape"#),
        (#""\ud83d""#, 7, "unpaired surrogate"),
        (#""\ud83dx""#, 7, "unpaired surrogate"),
        (#""\ude00""#, 7, "unpaired surrogate"),
        (#""\ud83d\u0041""#, 13, "unpaired surrogate"),
        ("[1] [2]", 4, "trailing characters"),
        ("{\"a\":1}}", 7, "trailing characters"),
    ] as [(String, Int, String)])
    func failures(text: String, offset: Int, reason: String) {
        let failure = #expect(throws: JSONMessageParser.Failure.self) { try parse(text) }
        #expect(failure?.reason == reason)
        #expect(failure?.offset == offset)
    }

    @Test("nesting is refused past the maximum depth instead of overflowing the stack")
    func depthLimit() throws {
        let deepest = JSONMessageParser.maximumDepth
        let accepted = String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)
        #expect(try parse(accepted) != .null)
        let refused = String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1)
        let failure = #expect(throws: JSONMessageParser.Failure.self) { try parse(refused) }
        #expect(failure?.reason == "nesting too deep")
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONMessageParser.Failure.self) { try parse(hostile) }
    }

    @Test("the id's exact text is kept, at the top level and per batch element")
    func rawIDs() throws {
        let message = try JSONMessageParser.parseMessage(Data(#"{"id": 1.50, "params": {"id": 7}}"#.utf8))
        #expect(message.rawID == "1.50")
        let batch = try JSONMessageParser.parseMessage(Data(#"[{"id":1e400},{"method":"x"},{"id":"a\u0062"}]"#.utf8))
        #expect(batch.rawID == nil)
        #expect(batch.rawElementIDs == [0: "1e400", 2: #""a\u0062""#])
    }
}
