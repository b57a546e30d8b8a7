import Foundation
import MCP
import SwiftDBAI

extension SQLValue {
    /// Converts a JSON value from a tool call to an SQL value.
    ///
    /// Numbers, strings, booleans (1/0) and null map directly; a blob is `{"base64": "…"}` or a
    /// `data:` URL. Arrays and other objects are refused.
    ///
    /// - Throws: ``ToolCallError`` naming the argument.
    init(toolArgument value: Value, name: String) throws(ToolCallError) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .integer(bool ? 1 : 0)
        case .int(let integer): self = .integer(Int64(integer))
        case .double(let double): self = .real(double)
        case .string(let string): self = .text(string)
        case .data(_, let data): self = .blob(data)
        case .object(let object):
            guard object.count <= 2, let base64 = object["base64"]?.stringValue, let data = Data(base64Encoded: base64) else {
                throw ToolCallError("\(name) must be a number, a string, a boolean, null, or a blob as {\"base64\": \"…\"}.")
            }
            self = .blob(data)
        case .array:
            throw ToolCallError("\(name) must be a single value, not an array.")
        }
    }
}

extension Value {
    /// The JSON form of an SQL value: a blob is `{"base64": "…", "bytes": N}`; a non-finite real
    /// is the string `Infinity`, `-Infinity` or `NaN` (JSON has no such numbers).
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .int(Int(integer))
        case .real(let real):
            if real.isFinite {
                self = .double(real)
            } else {
                self = .string(real.isNaN ? "NaN" : (real > 0 ? "Infinity" : "-Infinity"))
            }
        case .text(let text): self = .string(text)
        case .blob(let data): self = .object(["base64": .string(data.base64EncodedString()), "bytes": .int(data.count)])
        }
    }

    /// Encodes any `Encodable` value through JSON.
    ///
    /// - Throws: ``ToolCallError`` if it cannot be encoded (never expected for our own types).
    static func encoding(_ value: some Encodable) throws(ToolCallError) -> Value {
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw ToolCallError("The result could not be encoded: \(error).")
        }
    }
}

extension QueryResult {
    /// The `structuredContent` of a read: columns, rows, row count, truncation (and which limit
    /// cut it: `truncated_by` is `rows` or `bytes`), clipped values, and time.
    var structuredValue: Value {
        var rows = rows.map { Value.array($0.map(Value.init)) }
        for cell in clippedCells {
            // A clipped blob keeps its first bytes; say how large it is in all.
            guard case .array(var row) = rows[cell.row], case .object(var blob) = row[cell.column] else { continue }
            blob["bytes"] = .int(cell.byteCount)
            blob["clipped"] = true
            row[cell.column] = .object(blob)
            rows[cell.row] = .array(row)
        }
        var object: [String: Value] = [
            "columns": .array(columns.map { column in
                var object: [String: Value] = ["name": .string(column.name)]
                if let type = column.declaredType { object["type"] = .string(type) }
                return .object(object)
            }),
            "rows": .array(rows),
            "row_count": .int(rowCount),
            "truncated": .bool(truncated),
            "elapsed_ms": .double(elapsed.roundedMilliseconds),
        ]
        if let truncationReason { object["truncated_by"] = .string(truncationReason.rawValue) }
        if !clippedCells.isEmpty { object["clipped_cells"] = .int(clippedCells.count) }
        return .object(object)
    }
}

extension MutationResult {
    /// The `structuredContent` of a write.
    var structuredValue: Value {
        var object: [String: Value] = [
            "operation": .string(operation.rawValue),
            "rows_affected": .int(rowsAffected),
            "elapsed_ms": .double(elapsed.roundedMilliseconds),
        ]
        if let lastInsertRowID { object["last_insert_rowid"] = .int(Int(lastInsertRowID)) }
        return .object(object)
    }
}

extension Duration {
    /// Milliseconds with three decimals.
    var roundedMilliseconds: Double {
        let (seconds, attoseconds) = components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return (milliseconds * 1000).rounded() / 1000
    }
}
