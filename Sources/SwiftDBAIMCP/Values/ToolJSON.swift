import MCP
import SwiftDBAI

// The JSON contract of the tools, written once: how the library's values appear in
// `structuredContent` and in the schema resources. The library's own types carry no wire keys;
// the output schemas in ``ToolSchemas`` describe exactly these shapes.

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

extension TableSchema {
    /// A table or view in `describe_schema` and the schema resources. Optional members are left
    /// out when absent.
    var structuredValue: Value {
        var object: [String: Value] = [
            "name": .string(name),
            "kind": .string(kind.rawValue),
            "columns": .array(columns.map(\.structuredValue)),
            "foreign_keys": .array(foreignKeys.map(\.structuredValue)),
            "indexes": .array(indexes.map(\.structuredValue)),
            "without_rowid": .bool(isWithoutRowID),
            "strict": .bool(isStrict),
            "sql": .string(sql),
        ]
        if let virtualTableModule { object["module"] = .string(virtualTableModule) }
        if let description { object["description"] = .string(description) }
        if let rowCount { object["row_count"] = rowCount.structuredValue }
        return .object(object)
    }
}

extension ColumnSchema {
    var structuredValue: Value {
        var object: [String: Value] = [
            "name": .string(name),
            "type": .string(declaredType),
            "not_null": .bool(isNotNull),
            "visibility": .string(visibility.rawValue),
        ]
        if let defaultValue { object["default"] = .string(defaultValue) }
        if let primaryKeyPosition { object["primary_key_position"] = .int(primaryKeyPosition) }
        if let description { object["description"] = .string(description) }
        if isMasked { object["masked"] = .bool(true) }
        return .object(object)
    }
}

extension ForeignKeySchema {
    var structuredValue: Value {
        [
            "columns": .array(columns.map(Value.string)),
            "references_table": .string(referencedTable),
            "references_columns": .array(referencedColumns.map(Value.string)),
            "on_update": .string(onUpdate),
            "on_delete": .string(onDelete),
        ]
    }
}

extension IndexSchema {
    var structuredValue: Value {
        var object: [String: Value] = [
            "name": .string(name),
            "unique": .bool(isUnique),
            "partial": .bool(isPartial),
            "origin": .string(origin.rawValue),
            "terms": .array(terms.map { term in
                var object: [String: Value] = ["expression": .bool(term.isExpression), "descending": .bool(term.isDescending)]
                if let column = term.column { object["column"] = .string(column) }
                return .object(object)
            }),
        ]
        if let sql { object["sql"] = .string(sql) }
        return .object(object)
    }
}
