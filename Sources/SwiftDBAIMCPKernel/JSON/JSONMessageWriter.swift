import Foundation
import MCP
import SwiftDBAIPrimitives

/// Writes the SDK's `Value` as compact JSON (keys sorted), for the server's hot path.
package enum JSONMessageWriter {
    package static func data(_ value: Value) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(value, into: &bytes)
        return Data(bytes)
    }

    package static func write(_ value: Value, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let bool): bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        case .int(let integer): bytes.append(contentsOf: String(integer).utf8)
        case .double(let double):
            if double.isFinite {
                if double.rounded() == double, abs(double) < 1e15 {
                    if double.sign == .minus, double == 0 { bytes.append(UInt8(ascii: "-")) }  // -0.0 keeps its sign
                    bytes.append(contentsOf: String(Int64(double)).utf8)
                    bytes.append(contentsOf: ".0".utf8)
                } else {
                    bytes.append(contentsOf: String(double).utf8)
                }
            } else {
                bytes.append(contentsOf: "null".utf8)
            }
        case .string(let string): writeString(string, into: &bytes)
        case .data(let mimeType, let data):
            writeString("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())", into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (offset, key) in members.keys.sorted().enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                if let member = members[key] { write(member, into: &bytes) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The bytes ``write(_:into:)`` writes for `value`, counted without writing them.
    package static func size(of value: Value) -> Int {
        switch value {
        case .null: 4
        case .bool(let bool): bool ? 4 : 5
        case .int(let integer): decimalDigits(integer)
        case .double(let double):
            if !double.isFinite {
                4
            } else if double.rounded() == double, abs(double) < 1e15 {
                decimalDigits(Int(double)) + 2 + (double.sign == .minus && double == 0 ? 1 : 0)
            } else {
                String(double).utf8.count
            }
        case .string(let string): size(of: string)
        case .data(let mimeType, let data):
            size(of: "data:\(mimeType ?? "application/octet-stream");base64,") + (data.count + 2) / 3 * 4
        case .array(let elements):
            elements.reduce(1 + max(0, elements.count - 1) + 1) { $0 + size(of: $1) }
        case .object(let members):
            members.reduce(1 + max(0, members.count - 1) + 1) { $0 + size(of: $1.key) + 1 + size(of: $1.value) }
        }
    }

    /// The bytes ``writeString(_:into:)`` writes for `string`: quotes and escapes included.
    package static func size(of string: String) -> Int {
        JSONEscaping.stringSize(of: string)
    }

    private static func decimalDigits(_ integer: Int) -> Int {
        var magnitude = integer.magnitude
        var digits = integer < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            digits += 1
        }
        return digits
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    package static func writeString(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
