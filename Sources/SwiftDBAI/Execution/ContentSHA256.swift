import Crypto
import Foundation

/// A SHA-256 of typed values, the same in every process and on every machine (Swift's `Hasher`
/// is seeded per process; ``StableDigest`` is short and not cryptographic: a confirmation's rows
/// need a digest nobody can match with other content). Each value is written with its type and, for text and bytes, its
/// length, so that no two sequences of values give the same bytes; they are hashed in blocks.
struct ContentSHA256 {
    private var hash = SHA256()
    private var pending: [UInt8] = []

    init() {
        pending.reserveCapacity(Self.blockSize)
    }

    /// Bytes gathered before they are hashed.
    private static let blockSize = 16_384

    mutating func add(_ value: SQLValue) {
        switch value {
        case .null:
            pending.append(0)
        case .integer(let integer):
            pending.append(1)
            add(integer)
        case .real(let real):
            pending.append(2)
            append(word: real.bitPattern)
        case .text(let text):
            pending.append(3)
            add(text)
        case .blob(let data):
            pending.append(4)
            append(bytes: data)
        }
        flushIfFull()
    }

    mutating func add(_ integer: Int64) {
        append(word: UInt64(bitPattern: integer))
        flushIfFull()
    }

    mutating func add(_ text: String) {
        append(word: UInt64(text.utf8.count))
        pending.append(contentsOf: text.utf8)
        flushIfFull()
    }

    mutating func add(_ data: Data) {
        append(bytes: data)
        flushIfFull()
    }

    /// The digest of everything added.
    mutating func finalize() -> Data {
        hash.update(data: pending)
        pending.removeAll()
        return Data(hash.finalize())
    }

    private mutating func append(bytes data: Data) {
        append(word: UInt64(data.count))
        pending.append(contentsOf: data)
    }

    private mutating func append(word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { pending.append(contentsOf: $0) }
    }

    private mutating func flushIfFull() {
        guard pending.count >= Self.blockSize else { return }
        hash.update(data: pending)
        pending.removeAll(keepingCapacity: true)
    }
}
