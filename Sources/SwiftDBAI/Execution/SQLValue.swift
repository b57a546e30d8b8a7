import Foundation
import GRDB

/// One SQLite value: integer, real, text, blob or null.
///
/// Encodes to JSON as a number, a string, `null`, or for a blob an object
/// `{"base64": "…", "bytes": N}`.
public enum SQLValue: Sendable, Hashable {
    /// `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double-precision float.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// The SQLite storage class name: `null`, `integer`, `real`, `text` or `blob`.
    public var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}

extension SQLValue: Codable {
    private enum BlobKeys: String, CodingKey {
        case base64
        case bytes
    }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: BlobKeys.self) {
            let base64 = try container.decode(String.self, forKey: .base64)
            guard let data = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: container, debugDescription: "Invalid base64")
            }
            self = .blob(data)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .integer(bool ? 1 : 0)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {
            self = .real(real)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .blob(let data):
            var container = encoder.container(keyedBy: BlobKeys.self)
            try container.encode(data.base64EncodedString(), forKey: .base64)
            try container.encode(data.count, forKey: .bytes)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .real(let value):
            var container = encoder.singleValueContainer()
            if value.isFinite {
                try container.encode(value)
            } else {
                // JSON has no infinity; SQLite may return it (1e999).
                try container.encode(value > 0 ? "Infinity" : (value < 0 ? "-Infinity" : "NaN"))
            }
        case .text(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}

extension SQLValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SQLValue? {
        SQLValue(dbValue)
    }

    init(_ dbValue: DatabaseValue) {
        switch dbValue.storage {
        case .null: self = .null
        case .int64(let value): self = .integer(value)
        case .double(let value): self = .real(value)
        case .string(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
