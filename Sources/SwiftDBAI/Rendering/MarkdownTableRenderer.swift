/// Renders query results as a compact Markdown table, for people and language models reading
/// tool results.
///
/// Cells are cut at ``maxCellLength`` characters, pipes are escaped, line breaks become spaces,
/// blobs are shown as `<blob N bytes>`, and a last line tells how many rows there are and
/// whether the row cap cut them.
///
/// ```swift
/// MarkdownTableRenderer().render(result)
/// // | ArtistId | Name |
/// // | --- | --- |
/// // | 1 | AC/DC |
/// //
/// // 1 row
/// ```
public struct MarkdownTableRenderer: Sendable {
    /// The most characters shown per cell.
    public var maxCellLength: Int

    /// Creates a renderer.
    public init(maxCellLength: Int = 120) {
        self.maxCellLength = max(8, maxCellLength)
    }

    /// The result as a Markdown table followed by a row-count line.
    public func render(_ result: QueryResult) -> String {
        var lines: [String] = []
        lines.reserveCapacity(result.rows.count + 4)
        lines.append("| " + result.columns.map { escape($0.name) }.joined(separator: " | ") + " |")
        lines.append("|" + String(repeating: " --- |", count: result.columns.count))
        for row in result.rows {
            lines.append("| " + row.map(cell).joined(separator: " | ") + " |")
        }
        lines.append("")
        var summary = result.rowCount == 1 ? "1 row" : "\(result.rowCount) rows"
        if result.truncated {
            summary += " (truncated: the statement has more rows; narrow it or add a LIMIT)"
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// The text of one value in a table cell.
    public func cell(_ value: SQLValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .blob(let data): return "<blob \(data.count) bytes>"
        case .text(let text): return escape(text)
        }
    }

    private func escape(_ text: String) -> String {
        var text = text
        if text.count > maxCellLength {
            text = String(text.prefix(maxCellLength)) + "…"
        }
        guard text.contains(where: { $0 == "|" || $0.isNewline }) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 }).replacingOccurrences(of: "|", with: "\\|")
    }
}
