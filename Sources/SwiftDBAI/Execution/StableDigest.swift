import Foundation
import GRDB

/// A 64-bit FNV-1a digest of row content that is the same in every process and on every
/// machine (unlike `Hasher`): a record written by one process can be checked against the
/// database by another. Not a cryptographic hash.
struct StableDigest {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The digest of the current content of the given rows (missing rows count as missing), as
    /// `fnv1a64:` and 16 hexadecimal digits.
    ///
    /// - Throws: a GRDB `DatabaseError`.
    static func of(_ rowIDs: [String: [Int64]], schema: DatabaseSchema, db: Database) throws -> String {
        var digest = StableDigest()
        try RowWalk.visit(rowIDs, schema: schema, db: db) { event in
            switch event {
            case .table(let name, let count):
                digest.combine(tag: 1)
                digest.combine(text: name)
                digest.combine(integer: Int64(count))
            case .row(let row):
                digest.combine(tag: 2)
                digest.combine(integer: Int64(row.count))
                for index in 0..<row.count {
                    digest.combine(SQLValue(row[index] as DatabaseValue))
                }
            case .chunkEnd:
                digest.combine(tag: 3)
            }
        }
        return digest.text
    }

    /// `fnv1a64:` and the digest in 16 hexadecimal digits.
    var text: String {
        let hex = String(state, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    mutating func combine(_ value: SQLValue) {
        switch value {
        case .null:
            combine(tag: 10)
        case .integer(let number):
            combine(tag: 11)
            combine(integer: number)
        case .real(let number):
            combine(tag: 12)
            combine(integer: Int64(bitPattern: number.bitPattern))
        case .text(let text):
            combine(tag: 13)
            combine(text: text)
        case .blob(let data):
            combine(tag: 14)
            combine(integer: Int64(data.count))
            for byte in data { combine(byte: byte) }
        }
    }

    private mutating func combine(tag: UInt8) {
        combine(byte: tag)
    }

    private mutating func combine(integer: Int64) {
        var value = UInt64(bitPattern: integer)
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    private mutating func combine(text: String) {
        combine(integer: Int64(text.utf8.count))
        for byte in text.utf8 { combine(byte: byte) }
    }

    private mutating func combine(byte: UInt8) {
        state ^= UInt64(byte)
        state = state &* 0x0000_0100_0000_01b3
    }
}
