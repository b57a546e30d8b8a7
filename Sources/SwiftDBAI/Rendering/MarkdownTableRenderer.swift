import Foundation
import SwiftDBAIPrimitives

/// Renders query results as a compact Markdown table, for people and language models reading
/// tool results.
///
/// Cells are cut at ``maxCellLength`` characters, pipes are escaped, line breaks become spaces,
/// blobs are shown as `<blob N bytes>`, the table stops before it passes ``maxBytes``, and a last
/// line tells how many rows there are and which limit cut them.
///
/// ```swift
/// MarkdownTableRenderer().render(result)
/// // | ArtistId | Name |
/// // | --- | --- |
/// // | 1 | AC/DC |
/// //
/// // 1 row
/// ```
package struct MarkdownTableRenderer: Sendable {
    /// The most characters shown per cell.
    package var maxCellLength: Int
    /// The most bytes of table text (nil: no limit); the rows beyond are counted, not shown.
    package var maxBytes: Int?
    /// Significant digits a real is rounded to (nil: every digit, as stored). Prose summaries
    /// round, so that a sum such as `523.0600000000003` reads `523.06`; tool results never do.
    package var significantDigits: Int?

    /// Creates a renderer.
    package init(maxCellLength: Int = 120, maxBytes: Int? = nil, significantDigits: Int? = nil) {
        self.maxCellLength = max(8, maxCellLength)
        self.maxBytes = maxBytes.map { max(256, $0) }
        self.significantDigits = significantDigits.map { min(17, max(1, $0)) }
    }

    /// The renderer of results in prose summaries: short cells, reals to ten significant digits.
    package static let summary = MarkdownTableRenderer(maxCellLength: 60, significantDigits: 10)

    /// The result as a Markdown table followed by a row-count line.
    package func render(_ result: QueryResult) -> String {
        var lines: [String] = []
        lines.reserveCapacity(result.rows.count + 4)
        let header = "| " + result.columns.map { escape($0.name) }.joined(separator: " | ") + " |"
        let separator = "|" + String(repeating: " --- |", count: result.columns.count)
        // Room for the summary line below.
        let limit = maxBytes.map { $0 - 400 }
        if let limit, Self.cost(header) + Self.cost(separator) + 2 > limit {
            // Too wide for a table within the budget: the rows are in the structured result.
            return "\(result.columns.count) columns, \(result.rowCount == 1 ? "1 row" : "\(result.rowCount) rows"): too wide to show "
                + "as a table here; every column and row is in the structured result."
        }
        lines.append(header)
        lines.append(separator)
        var bytes = lines.reduce(0) { $0 + Self.cost($1) }
        var shown = 0
        var clipped: [Int: [Int: Int]] = [:]
        for cell in result.clippedCells { clipped[cell.row, default: [:]][cell.column] = cell.byteCount }
        for (index, row) in result.rows.enumerated() {
            let cells = clipped[index].map { clippedColumns in
                row.enumerated().map { column, value in
                    clippedColumns[column].map { clippedCell(value, byteCount: $0) } ?? cell(value)
                }
            } ?? row.map(cell)
            let line = "| " + cells.joined(separator: " | ") + " |"
            if let limit, bytes + Self.cost(line) > limit { break }
            bytes += Self.cost(line)
            lines.append(line)
            shown += 1
        }
        lines.append("")
        var summary = result.rowCount == 1 ? "1 row" : "\(result.rowCount) rows"
        if shown < result.rowCount {
            summary += " (\(shown) shown here to keep this text short; every row is in the structured result)"
        }
        switch result.truncationReason {
        case .rows?:
            summary += "; truncated: the statement has more rows than the row limit; narrow it or add a LIMIT"
        case .bytes? where !result.clippedCells.isEmpty && result.truncated:
            summary += "; truncated: long values were clipped, and rows may be missing, to stay within the result size limit; select fewer or shorter columns (substr())"
        case .bytes?:
            summary += "; truncated: the rows reached the result size limit; select fewer columns or rows"
        case nil:
            break
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// The bytes a line takes in a JSON string: its UTF-8, an escape for each quote or
    /// backslash, and its line break (`\n`).
    static func cost(_ line: String) -> Int {
        JSONEscaping.stringSize(of: line)
    }

    /// The text of one value in a table cell.
    package func cell(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return text(of: real)
        case .blob(let data): return "<blob \(data.count) bytes>"
        case .text(let text): return escape(text)
        }
    }

    /// A real as stored, or rounded to ``significantDigits`` and written in its shortest form.
    private func text(of real: Double) -> String {
        guard let significantDigits, real.isFinite, real != 0 else { return String(real) }
        let magnitude = Int(log10(abs(real)).rounded(.down))
        let scale = pow(10, Double(significantDigits - 1 - magnitude))
        guard scale.isFinite, scale > 0 else { return String(real) }
        let rounded = (real * scale).rounded() / scale
        return rounded.isFinite ? String(rounded) : String(real)
    }

    /// A value clipped to the cell limit: its size in all stays visible.
    private func clippedCell(_ value: SQLValue, byteCount: Int) -> String {
        switch value {
        case .blob: return "<blob \(byteCount) bytes, clipped>"
        case .text(let text):
            let kept = text.hasSuffix(ResultReader.clipMarker(byteCount))
                ? String(text.dropLast(ResultReader.clipMarker(byteCount).count)) : text
            return escape(String(kept.prefix(maxCellLength))) + ResultReader.clipMarker(byteCount)
        default: return cell(value)
        }
    }

    private func escape(_ text: String) -> String {
        var text = text
        if text.utf8.count > maxCellLength, text.count > maxCellLength {
            text = String(text.prefix(maxCellLength)) + "…"
        }
        guard text.contains(where: { $0 == "|" || $0.isNewline }) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 }).replacingOccurrences(of: "|", with: "\\|")
    }
}
