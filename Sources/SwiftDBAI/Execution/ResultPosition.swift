/// Where the next page of a read's rows starts: how many rows came before it, a fingerprint of
/// those rows, and the schema version they were read under.
///
/// Reads hold no transaction between pages: the next page runs the statement again and steps
/// past ``offset`` rows, comparing them with ``fingerprint``. When they differ — the data changed,
/// or the statement's order is not unique — the page says so (``QueryResult/earlierRowsChanged``).
/// A page asked for under another schema version is refused.
public struct ResultPosition: Sendable, Hashable, Codable {
    /// The rows before the page.
    public var offset: Int
    /// A fingerprint of those rows, as the reader returned them.
    public var fingerprint: UInt64
    /// `PRAGMA schema_version` when they were read.
    public var schemaVersion: Int

    /// Creates a position.
    public init(offset: Int, fingerprint: UInt64, schemaVersion: Int) {
        self.offset = offset
        self.fingerprint = fingerprint
        self.schemaVersion = schemaVersion
    }
}

/// A stable fingerprint (FNV-1a) of rows of values: the same rows give the same fingerprint in
/// every process. It keeps 53 bits, so that it survives JSON readers that read numbers as doubles.
package struct RowFingerprint {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// The fingerprint of the rows added so far.
    package var value: UInt64 { state & 0x1F_FFFF_FFFF_FFFF }

    package mutating func add(_ row: [SQLValue]) {
        for value in row { add(value) }
        mixByte(0xFE)
    }

    private mutating func add(_ value: SQLValue) {
        switch value {
        case .null:
            mixByte(0)
        case .integer(let integer):
            mixByte(1)
            mixWord(UInt64(bitPattern: integer))
        case .real(let real):
            mixByte(2)
            mixWord(real.bitPattern)
        case .text(let text):
            mixByte(3)
            for byte in text.utf8 { mixByte(byte) }
            mixByte(0xFF)
        case .blob(let data):
            mixByte(4)
            mixWord(UInt64(data.count))
            for byte in data { mixByte(byte) }
        }
    }

    private mutating func mixByte(_ byte: UInt8) {
        state ^= UInt64(byte)
        state = state &* 0x0000_0100_0000_01b3
    }

    private mutating func mixWord(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { mixByte(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
}
