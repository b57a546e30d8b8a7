import Foundation

/// Writes an export's records to a file descriptor through a fixed buffer, and marks where
/// chunks of at most `chunkBytes` start: at record boundaries, except inside a record larger
/// than a chunk, which is split at UTF-8 character boundaries.
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

    /// Appends one record.
    ///
    /// - Throws: ``TooLarge`` past the cap, ``WriteFailed`` when the file cannot be written.
    mutating func append(_ record: [UInt8]) throws {
        let total = written + buffer.count
        if let maxBytes, total + record.count > maxBytes { throw TooLarge() }
        let chunkStart = chunkStarts[chunkStarts.count - 1]
        if total > chunkStart, total + record.count - chunkStart > chunkBytes {
            chunkStarts.append(total)
        }
        if record.count > chunkBytes {
            // Its own chunks, cut at character boundaries.
            splitRecords += 1
            var offset = chunkBytes
            while offset < record.count {
                var cut = offset
                while cut > offset - chunkBytes + 1, record[cut] & 0xC0 == 0x80 { cut -= 1 }
                chunkStarts.append(total + cut)
                offset = cut + chunkBytes
            }
            if total + record.count - chunkStarts[chunkStarts.count - 1] > 0 {
                // The next record starts a new chunk.
                chunkStarts.append(total + record.count)
            }
        }
        buffer.append(contentsOf: record)
        if buffer.count >= Self.bufferBytes { try flush() }
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
