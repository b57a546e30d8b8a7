import Foundation
import GRDBSQLite

/// Encodes the rows of a statement as CSV or JSON Lines records, straight from SQLite's result
/// columns (see ``ExportFormat`` for the exact form).
struct ExportRecordEncoder {
    let format: ExportFormat
    /// The keys of a JSON Lines record: the column names, repeated ones made unique.
    private let keys: [[UInt8]]
    private let names: [String]
    /// The statement's result column of each record field.
    private let sources: [Int32]

    /// - Parameter sources: the result column of each name (by default, the first ones in order).
    init(format: ExportFormat, columnNames: [String], sources: [Int]? = nil) {
        self.format = format
        names = columnNames
        self.sources = (sources ?? Array(columnNames.indices)).map { Int32($0) }
        var seen: [String: Int] = [:]
        var unique: [String] = []
        for name in columnNames {
            var candidate = name
            var number = seen[name, default: 0]
            while unique.contains(candidate) {
                number += 1
                candidate = "\(name)_\(number + 1)"
            }
            seen[name] = number
            unique.append(candidate)
        }
        keys = unique.map { Array(Self.jsonString($0).utf8) }
    }

    /// The CSV header record (nothing for JSON Lines).
    func header(into bytes: inout [UInt8]) {
        guard format == .csv else { return }
        for (index, name) in names.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendCSVText(Array(name.utf8), into: &bytes)
        }
        bytes.append(contentsOf: [13, 10])
    }

    /// The record of the statement's current row.
    func record(_ handle: OpaquePointer, into bytes: inout [UInt8]) {
        switch format {
        case .csv:
            for column in 0..<keys.count {
                if column > 0 { bytes.append(UInt8(ascii: ",")) }
                csvField(handle, sources[column], into: &bytes)
            }
            bytes.append(contentsOf: [13, 10])
        case .jsonLines:
            bytes.append(UInt8(ascii: "{"))
            for column in 0..<keys.count {
                if column > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: keys[column])
                bytes.append(UInt8(ascii: ":"))
                jsonValue(handle, sources[column], into: &bytes)
            }
            bytes.append(contentsOf: [UInt8(ascii: "}"), 10])
        }
    }

    // MARK: - CSV

    private func csvField(_ handle: OpaquePointer, _ column: Int32, into bytes: inout [UInt8]) {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            bytes.append(contentsOf: String(sqlite3_column_int64(handle, column)).utf8)
        case SQLITE_FLOAT:
            bytes.append(contentsOf: Self.realText(sqlite3_column_double(handle, column)).utf8)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer = sqlite3_column_text(handle, column), count > 0 else {
                bytes.append(contentsOf: [34, 34])  // "" — an empty text, not NULL
                return
            }
            // Decoded and re-encoded, so that invalid UTF-8 becomes U+FFFD as in `query`.
            appendCSVText(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self).utf8, into: &bytes)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer = sqlite3_column_blob(handle, column), count > 0 else { return }
            let blob = UnsafeRawBufferPointer(start: pointer, count: count)
            let digits = Array("0123456789abcdef".utf8)
            for byte in blob {
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        default:
            break  // NULL: an empty field
        }
    }

    private func appendCSVText<Bytes: BidirectionalCollection<UInt8>>(_ text: Bytes, into bytes: inout [UInt8]) {
        let needsQuotes = text.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
            || text.first == 32 || text.last == 32 || text.isEmpty
        guard needsQuotes else {
            bytes.append(contentsOf: text)
            return
        }
        bytes.append(34)
        for byte in text {
            if byte == 34 { bytes.append(34) }
            bytes.append(byte)
        }
        bytes.append(34)
    }

    // MARK: - JSON

    private func jsonValue(_ handle: OpaquePointer, _ column: Int32, into bytes: inout [UInt8]) {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            bytes.append(contentsOf: String(sqlite3_column_int64(handle, column)).utf8)
        case SQLITE_FLOAT:
            let real = sqlite3_column_double(handle, column)
            bytes.append(contentsOf: (real.isFinite ? Self.realText(real) : "null").utf8)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer = sqlite3_column_text(handle, column), count > 0 else {
                bytes.append(contentsOf: [34, 34])
                return
            }
            Self.appendJSONString(String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self).utf8, into: &bytes)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            let data = sqlite3_column_blob(handle, column).map { Data(bytes: $0, count: count) } ?? Data()
            bytes.append(contentsOf: "{\"base64\":\"\(data.base64EncodedString())\",\"bytes\":\(data.count)}".utf8)
        default:
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// A real as the shortest text that reads back as the same value (`0.1`, `1e+300`, `2.0`).
    static func realText(_ real: Double) -> String {
        guard real.isFinite else { return real.isNaN ? "" : (real > 0 ? "Infinity" : "-Infinity") }
        return "\(real)"
    }

    static func jsonString(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendJSONString(Array(text.utf8), into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends UTF-8 text as a JSON string: quotes, and escapes for `"`, `\` and control characters.
    static func appendJSONString<Bytes: Collection<UInt8>>(_ text: Bytes, into bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(34)
        for byte in text {
            switch byte {
            case 34: bytes.append(contentsOf: [92, 34])
            case 92: bytes.append(contentsOf: [92, 92])
            case 10: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 13: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 9: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(34)
    }
}
