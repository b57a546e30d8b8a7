import Foundation
import MCP
import SwiftDBAI

extension SQLValue {
    /// Converts a JSON value from a tool call to an SQL value.
    ///
    /// Numbers, strings, booleans (1/0) and null map directly; a blob is `{"base64": "…"}` or a
    /// `data:` URL. Arrays and other objects are refused.
    ///
    /// - Throws: ``ToolCallError`` naming the argument.
    init(toolArgument value: Value, name: String) throws(ToolCallError) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .integer(bool ? 1 : 0)
        case .int(let integer): self = .integer(Int64(integer))
        case .double(let double): self = .real(double)
        case .string(let string): self = .text(string)
        case .data(_, let data): self = .blob(data)
        case .object(let object):
            guard object.count <= 2, let base64 = object["base64"]?.stringValue, let data = Data(base64Encoded: base64) else {
                throw ToolCallError("\(name) must be a number, a string, a boolean, null, or a blob as {\"base64\": \"…\"}.")
            }
            self = .blob(data)
        case .array:
            throw ToolCallError("\(name) must be a single value, not an array.")
        }
    }
}

extension Value {
    /// The JSON form of an SQL value: a blob is `{"base64": "…", "bytes": N}`; a non-finite real
    /// is the string `Infinity`, `-Infinity` or `NaN` (JSON has no such numbers).
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .int(Int(integer))
        case .real(let real):
            if real.isFinite {
                self = .double(real)
            } else {
                self = .string(real.isNaN ? "NaN" : (real > 0 ? "Infinity" : "-Infinity"))
            }
        case .text(let text): self = .string(text)
        case .blob(let data): self = .object(["base64": .string(data.base64EncodedString()), "bytes": .int(data.count)])
        }
    }
}

extension Duration {
    /// Milliseconds with three decimals.
    var roundedMilliseconds: Double {
        let (seconds, attoseconds) = components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return (milliseconds * 1000).rounded() / 1000
    }
}
