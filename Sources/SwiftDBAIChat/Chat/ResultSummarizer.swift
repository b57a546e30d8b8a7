import SwiftDBAI

/// A short plain-language summary computed from a result, used when the model's summary is off
/// or fails.
enum ResultSummarizer {
    static func summary(of result: QueryResult) -> String {
        let renderer = MarkdownTableRenderer.summary
        switch (result.rowCount, result.columns.count) {
        case (0, _):
            return "No rows match."
        case (1, 1):
            return "\(result.columns[0].name): \(renderer.cell(result.rows[0][0]))."
        case (1, _):
            let pairs = zip(result.columns, result.rows[0]).map { "\($0.name) \(renderer.cell($1))" }
            return "One row: " + pairs.joined(separator: ", ") + "."
        default:
            let first = result.rows.prefix(3).map { row in row.map(renderer.cell).joined(separator: " · ") }
            let more = result.truncated ? "at least \(result.rowCount) rows" : "\(result.rowCount) rows"
            return "\(more.prefix(1).uppercased() + more.dropFirst()); first: " + first.joined(separator: "; ") + "."
        }
    }

    static func summary(of result: MutationResult) -> String {
        let verb = switch result.operation {
        case .insert: "Inserted"
        case .update: "Updated"
        case .delete: "Deleted"
        case .select: "Read"
        }
        return "\(verb) \(result.rowsAffected) row\(result.rowsAffected == 1 ? "" : "s")."
    }
}
