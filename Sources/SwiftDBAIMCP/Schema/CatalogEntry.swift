import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// One table or view in a compact catalog: its name, kind, column names, row count and
/// description — what an agent needs to choose the tables to describe in full.
struct CatalogEntry: Sendable {
    var table: TableSchema
    /// The columns a search matched, in table order; empty outside a search.
    var matchedColumns: [String] = []
    /// The column names shown; fewer than the table's when they alone would not fit an answer.
    var shownColumns: Int

    init(_ table: TableSchema, matchedColumns: [String] = []) {
        self.table = table
        self.matchedColumns = matchedColumns
        shownColumns = table.columns.count
    }

    /// The entry in `describe_schema`'s `catalog` and the schema resource.
    var structuredValue: Value {
        var object: [String: Value] = [
            "name": .string(table.name),
            "kind": .string(table.kind.rawValue),
            "columns": .array(table.columns.prefix(shownColumns).map { .string($0.name) }),
        ]
        if shownColumns < table.columns.count { object["columns_not_shown"] = .int(table.columns.count - shownColumns) }
        if let rowCount = table.rowCount { object["row_count"] = rowCount.structuredValue }
        if let description = table.description { object["description"] = .string(description) }
        if !matchedColumns.isEmpty { object["matched_columns"] = .array(matchedColumns.map(Value.string)) }
        return .object(object)
    }

    /// The entry as one line of text.
    var line: String {
        var line = "- \(table.name)"
        var facts: [String] = []
        if table.kind != .table { facts.append(table.kind.rawValue) }
        if let rowCount = table.rowCount { facts.append("\(rowCount.phrase) rows") }
        if !facts.isEmpty { line += " (\(facts.joined(separator: ", ")))" }
        line += ": " + table.columns.prefix(shownColumns).map(\.name).joined(separator: ", ")
        if shownColumns < table.columns.count { line += ", … \(table.columns.count - shownColumns) more columns" }
        if let description = table.description { line += " — " + SchemaDescriber.singleLine(description) }
        if !matchedColumns.isEmpty { line += " [matches: \(matchedColumns.joined(separator: ", "))]" }
        return line
    }

    /// The bytes the entry takes in an answer: its structured form and its line.
    var size: Int {
        AnswerBudget.size(of: structuredValue) + AnswerBudget.size(of: line) + 2
    }

    /// The entry cut to fit `bytes`: fewer column names (at least one), then, when that is not
    /// enough, its description and matched columns shortened; nil when even its name does not fit.
    func fitted(to bytes: Int) -> CatalogEntry? {
        if size <= bytes { return self }
        if let shown = fittedColumns(to: bytes) { return shown }
        var shorter = self
        shorter.table.description = table.description.map { Echo.clipped($0, to: 160) }
        shorter.matchedColumns = Array(matchedColumns.prefix(8))
        return shorter.fittedColumns(to: bytes)
    }

    private func fittedColumns(to bytes: Int) -> CatalogEntry? {
        var low = 1, high = max(1, table.columns.count)
        var best: CatalogEntry?
        while low <= high {
            var candidate = self
            candidate.shownColumns = (low + high) / 2
            if candidate.size <= bytes {
                best = candidate
                low = candidate.shownColumns + 1
            } else {
                high = candidate.shownColumns - 1
            }
        }
        return best
    }
}

extension RowCountEstimate {
    /// `{count, exact, source}`: `source` says where an inexact count comes from.
    var structuredValue: Value {
        ["count": .int(count), "exact": .bool(isExact), "source": .string(source.rawValue)]
    }
}
