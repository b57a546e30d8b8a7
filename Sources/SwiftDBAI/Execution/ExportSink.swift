import Foundation
import SwiftDBAIPrimitives

/// Writes an export's records to a file descriptor through a fixed buffer, and marks where
/// chunks of at most `chunkBytes` (as a JSON string) start: at record boundaries, except inside
/// a record larger than a chunk, which is split at UTF-8 character boundaries.
struct ExportSink {
    let descriptor: Int32
    let chunkBytes: Int
    let maxBytes: Int?
    private var buffer: [UInt8] = []
    private(set) var written = 0
    private(set) var chunkStarts: [Int] = [0]
    private(set) var splitRecords = 0

    static let bufferBytes = 64 * 1024

    /// The export would exceed its byte cap.
    struct TooLarge: Error {}
    /// Writing failed with `errno`.
    struct WriteFailed: Error { let code: Int32 }

    init(descriptor: Int32, chunkBytes: Int, maxBytes: Int?) {
        self.descriptor = descriptor
        self.chunkBytes = max(16, chunkBytes)
        self.maxBytes = maxBytes
        buffer.reserveCapacity(Self.bufferBytes + 4096)
    }

    /// What the current chunk takes as a JSON string.
    private var chunkCost = 0

    /// Appends one record.
    ///
    /// Chunks are measured as the JSON string a `resources/read` answer carries them in (a quote,
    /// a backslash or a control character takes more than one byte there), so that a chunk of
    /// `chunkBytes` fits an answer of that size.
    ///
    /// - Throws: ``TooLarge`` past the cap, ``WriteFailed`` when the file cannot be written.
    mutating func append(_ record: [UInt8]) throws {
        let total = written + buffer.count
        if let maxBytes, total + record.count > maxBytes { throw TooLarge() }
        let cost = record.reduce(0) { $0 + JSONEscaping.size(of: $1) }
        if chunkCost > 0, chunkCost + cost > chunkBytes {
            chunkStarts.append(total)
            chunkCost = 0
        }
        if cost > chunkBytes {
            // A record larger than a chunk: cut between characters as each piece fills.
            splitRecords += 1
            var index = 0
            while index < record.count {
                let length = Self.characterLength(record[index])
                let end = min(record.count, index + length)
                let characterCost = record[index..<end].reduce(0) { $0 + JSONEscaping.size(of: $1) }
                if chunkCost > 0, chunkCost + characterCost > chunkBytes {
                    chunkStarts.append(total + index)
                    chunkCost = 0
                }
                chunkCost += characterCost
                index = end
            }
        } else {
            chunkCost += cost
        }
        buffer.append(contentsOf: record)
        if buffer.count >= Self.bufferBytes { try flush() }
    }

    /// The bytes of the UTF-8 character that starts with `lead` (1 for a stray continuation byte).
    static func characterLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    /// Writes what the buffer holds.
    ///
    /// - Throws: ``WriteFailed``.
    mutating func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let count = buffer.withUnsafeBytes { raw in
                write(descriptor, raw.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteFailed(code: errno)
            }
            offset += count
        }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// The chunk starts once everything is written (an empty trailing chunk dropped).
    var finishedChunkStarts: [Int] {
        var starts = chunkStarts
        while starts.count > 1, let last = starts.last, last >= written { starts.removeLast() }
        return starts
    }
}
