import Foundation
import GRDB
import GRDBSQLite
import SwiftDBAIPrimitives

/// Reads the rows of a compiled read statement under a row cap and a byte budget, straight from
/// SQLite's result columns.
///
/// Fetching stops at ``maxRows`` rows or when the next row would take the result past
/// ``maxBytes`` (counted as the rows' JSON encoding, the form clients receive), so a huge result
/// costs bounded memory whatever its shape. A text or blob longer than the cell limit is copied
/// only up to that limit: text ends with a visible `…[clipped: N bytes in all]` marker, a blob
/// keeps its first bytes, and the cell is listed in ``QueryResult/clippedCells``.
struct ResultReader {
    /// The most rows to return.
    var maxRows: Int
    /// The byte budget of the rows, as JSON.
    var maxBytes: Int
    /// The most bytes of one text or blob value (before the clip marker).
    var maxCellBytes: Int
    /// Whether a result that cannot fit (columns too wide, a first row too large) is an error;
    /// otherwise, as for the preview of a write (which must show what it will change), the first
    /// row is kept whatever its size.
    var refusesOversizedRows = true
    /// Result columns left out: those that come straight from a hidden column (`SELECT *`,
    /// ``ClassifiedStatement/hiddenResultColumns``); a hidden column read inside an expression
    /// is NULL already (``ColumnMaskAuthorizer``).
    var omittedColumns: [Int] = []

    /// The smallest cell limit, whatever the budget and the number of columns.
    static let minimumCellBytes = 64

    /// What a clipped value takes beyond its kept text: quotes, the clip marker, a comma.
    static let clipOverhead = 48

    /// What a result's fields other than its rows and columns may take as JSON.
    static let resultFieldBytes = 512

    init(maxRows: Int, maxBytes: Int, maxCellBytes: Int) {
        self.maxRows = max(1, maxRows)
        self.maxBytes = max(1, maxBytes)
        self.maxCellBytes = max(Self.minimumCellBytes, maxCellBytes)
    }

    init(limits: ExecutionLimits, maxRows: Int) {
        self.init(maxRows: maxRows, maxBytes: limits.maxResultBytes, maxCellBytes: limits.maxCellBytes)
    }

    /// Steps `statement` (already bound) and returns its rows.
    ///
    /// - Throws: a GRDB `DatabaseError` when a step fails.
    ///
    /// - Parameter position: a later page: the rows before it are stepped past (and compared
    ///   with the position's fingerprint) before rows are returned.
    func read(
        _ statement: Statement, sql: String, start: ContinuousClock.Instant = .now, after position: ResultPosition? = nil
    ) throws -> QueryResult {
        let handle = statement.sqliteStatement
        let kept = Self.keptColumns(statement.columnCount, omitting: omittedColumns)
        let columnCount = kept.count
        let columns = kept.map { index in
            QueryColumn(
                name: statement.columnNames[index],
                declaredType: sqlite3_column_decltype(handle, Int32(index)).map { String(cString: $0) })
        }
        // The columns and the result's other fields (counts, flags, the next page's cursor)
        // come out of the same budget, so that the whole structured result fits it.
        let described = columns.reduce(Self.resultFieldBytes) { total, column in
            var name = column.name
            let nameBytes = name.withUTF8 { Self.jsonStringLength($0) }
            var type = column.declaredType ?? ""
            let typeBytes = type.withUTF8 { Self.jsonStringLength($0) }
            return total + nameBytes + typeBytes + 28
        }
        guard described < self.maxBytes || !refusesOversizedRows else {
            throw SwiftDBAIError.invalidRequest(
                "The statement's \(columnCount) result columns alone take more than the \(self.maxBytes) bytes a result may hold: "
                    + "select fewer columns (or give them shorter names with AS).")
        }
        let maxBytes = refusesOversizedRows ? self.maxBytes - described : max(self.maxBytes / 2, self.maxBytes - described)
        // One row must always fit: with many columns, each cell gets a share of the budget.
        // A clipped value also takes its quotes and its clip marker: the share keeps room for them.
        let share = (maxBytes - 2 - columnCount) / max(1, columnCount) - Self.clipOverhead
        let cellLimit = max(Self.minimumCellBytes, min(maxCellBytes, share))
        var rows: [[SQLValue]] = []
        var clipped: [ClippedCell] = []
        var bytes = 2  // the rows array's brackets
        var reason: QueryResult.TruncationReason?
        var moreRows = false
        let cursor = try Row.fetchCursor(statement)
        var skipped = 0
        var earlier = RowFingerprint()
        if let position {
            while skipped < position.offset, try cursor.next() != nil {
                earlier.add(kept.map { Self.value(handle, Int32($0), limit: cellLimit).0 })
                skipped += 1
            }
        }
        while try cursor.next() != nil {
            if rows.count == maxRows {
                reason = .rows
                moreRows = true
                break
            }
            var row: [SQLValue] = []
            row.reserveCapacity(columnCount)
            var rowBytes = 1 + columnCount + (rows.isEmpty ? 0 : 1)  // brackets and commas
            var rowClipped: [ClippedCell] = []
            for (column, index) in kept.enumerated() {
                let (value, size, originalBytes) = Self.value(handle, Int32(index), limit: cellLimit)
                row.append(value)
                rowBytes += size
                if let originalBytes {
                    rowClipped.append(ClippedCell(row: rows.count, column: column, byteCount: originalBytes))
                }
            }
            if bytes + rowBytes > maxBytes, !rows.isEmpty || refusesOversizedRows {
                guard !rows.isEmpty else {
                    throw SwiftDBAIError.invalidRequest(
                        "One row of this result takes about \(rowBytes) bytes, more than the \(maxBytes) bytes left for rows in a result: "
                            + "select fewer columns, or shorter values with substr().")
                }
                reason = .bytes
                moreRows = true
                break
            }
            bytes += rowBytes
            rows.append(row)
            clipped.append(contentsOf: rowClipped)
        }
        if reason == nil, !clipped.isEmpty { reason = .bytes }
        var result = QueryResult(
            columns: columns, rows: rows, truncationReason: reason, clippedCells: clipped,
            elapsed: ContinuousClock.now - start, sql: sql)
        result.offset = skipped
        if let position {
            result.earlierRowsChanged = skipped < position.offset || earlier.value != position.fingerprint
        }
        if moreRows {
            var fingerprint = earlier
            for row in rows { fingerprint.add(row) }
            result.next = ResultPosition(
                offset: skipped + rows.count, fingerprint: fingerprint.value, schemaVersion: position?.schemaVersion ?? 0)
        }
        return result
    }

    /// The indexes of the result columns returned: all of `count` but the omitted ones.
    static func keptColumns(_ count: Int, omitting omitted: [Int]) -> [Int] {
        omitted.isEmpty ? Array(0..<count) : (0..<count).filter { !omitted.contains($0) }
    }

    /// One result value, its size as JSON, and its full size in bytes when it was clipped.
    private static func value(_ handle: OpaquePointer, _ column: Int32, limit: Int) -> (SQLValue, Int, Int?) {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return (.null, 4, nil)
        case SQLITE_INTEGER:
            let integer = sqlite3_column_int64(handle, column)
            return (.integer(integer), decimalLength(integer), nil)
        case SQLITE_FLOAT:
            let real = sqlite3_column_double(handle, column)
            return (.real(real), real.isFinite ? "\(real)".utf8.count + 2 : 11, nil)
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer = sqlite3_column_text(handle, column), count > 0 else { return (.text(""), 2, nil) }
            let bytes = UnsafeBufferPointer(start: pointer, count: count)
            let size = jsonStringLength(bytes)
            guard size > limit + 2 else {
                return (.text(String(decoding: bytes, as: UTF8.self)), size, nil)
            }
            // Clipped where the kept text, escaped as JSON, reaches the limit.
            var end = 0
            var cost = 0
            while end < count {
                let byte = bytes[end]
                let step = JSONEscaping.size(of: byte)
                if cost + step > limit { break }
                cost += step
                end += 1
            }
            while end > 0, end < count, bytes[end] & 0xC0 == 0x80 { end -= 1 }  // back to a character boundary
            let kept = UnsafeBufferPointer(rebasing: bytes[0..<end])
            let text = String(decoding: kept, as: UTF8.self) + clipMarker(count)
            return (.text(text), jsonStringLength(kept) + clipMarker(count).utf8.count, count)
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let pointer = sqlite3_column_blob(handle, column), count > 0 else { return (.blob(Data()), 30, nil) }
            let kept = min(count, limit * 3 / 4)  // base64 grows by a third
            let data = Data(bytes: pointer, count: kept)
            let size = (kept + 2) / 3 * 4 + 26 + decimalLength(Int64(count))
            return (.blob(data), size, kept < count ? count : nil)
        default:
            return (.null, 4, nil)
        }
    }

    /// The marker that ends a clipped text value.
    static func clipMarker(_ byteCount: Int) -> String {
        "…[clipped: \(byteCount) bytes in all]"
    }

    private static func decimalLength(_ value: Int64) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        return length
    }

    /// The length of UTF-8 text as a JSON string: quotes, and escapes for `"`, `\` and controls.
    static func jsonStringLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        JSONEscaping.stringSize(of: bytes)
    }
}

/// A value of a result that was clipped to the cell limit.
public struct ClippedCell: Sendable, Hashable, Codable {
    /// The row, from 0.
    public var row: Int
    /// The column, from 0.
    public var column: Int
    /// The size of the whole value in bytes, before clipping.
    public var byteCount: Int

    /// Creates a clipped-cell record.
    public init(row: Int, column: Int, byteCount: Int) {
        self.row = row
        self.column = column
        self.byteCount = byteCount
    }
}
