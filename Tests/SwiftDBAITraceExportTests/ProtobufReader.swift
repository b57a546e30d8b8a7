/// A test's reader of Protocol Buffers' wire format, written apart from the encoder it checks:
/// the fields of one message, each with its number and its value.
struct ProtobufReader {
    enum Value: Equatable {
        case varint(UInt64)
        case fixed64(UInt64)
        case fixed32(UInt32)
        case bytes([UInt8])
    }

    struct Failure: Error {}

    /// The fields of `bytes`, in order.
    static func fields(_ bytes: [UInt8]) throws -> [(field: Int, value: Value)] {
        var fields: [(Int, Value)] = []
        var index = 0
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.count, shift < 64 else { throw Failure() }
                let byte = bytes[index]
                index += 1
                result |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
        }
        func take(_ count: Int) throws -> [UInt8] {
            guard count >= 0, index + count <= bytes.count else { throw Failure() }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }
        while index < bytes.count {
            let tag = try varint()
            let field = Int(tag >> 3)
            switch tag & 7 {
            case 0: fields.append((field, .varint(try varint())))
            case 1: fields.append((field, .fixed64(try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) })))
            case 5: fields.append((field, .fixed32(try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) })))
            case 2: fields.append((field, .bytes(try take(Int(try varint())))))
            default: throw Failure()
            }
        }
        return fields
    }

    /// Every value of field `number`.
    static func all(_ number: Int, in bytes: [UInt8]) throws -> [Value] {
        try fields(bytes).filter { $0.field == number }.map(\.value)
    }

    /// The bytes of the one length-delimited field `number`.
    static func message(_ number: Int, in bytes: [UInt8]) throws -> [UInt8] {
        let values = try all(number, in: bytes)
        guard values.count == 1, case .bytes(let found) = values[0] else { throw Failure() }
        return found
    }

    static func messages(_ number: Int, in bytes: [UInt8]) throws -> [[UInt8]] {
        try all(number, in: bytes).map { value in
            guard case .bytes(let found) = value else { throw Failure() }
            return found
        }
    }

    static func string(_ number: Int, in bytes: [UInt8]) throws -> String? {
        let values = try all(number, in: bytes)
        guard let value = values.last else { return nil }
        guard case .bytes(let found) = value else { throw Failure() }
        return String(decoding: found, as: UTF8.self)
    }
}
