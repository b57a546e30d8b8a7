import Foundation
import SwiftDBAI

/// Suggests a chart for a result: a line for values over time, a pie for a few shares of a
/// whole, a bar for values per category — or nothing.
package enum ChartDetector {
    /// The chart that suits the result, or nil.
    ///
    /// - Parameter question: the question asked; words like "share" or "percentage" favour a pie.
    package static func chart(for result: QueryResult, question: String = "") -> ChartSpecification? {
        guard result.columns.count >= 2, result.rowCount >= 2 else { return nil }
        guard let valueIndex = result.columns.indices.last(where: { isNumeric(column: $0, in: result) }) else {
            return nil
        }
        let candidates = result.columns.indices.filter { $0 != valueIndex }
        guard let labelIndex = candidates.first else { return nil }
        let x = result.columns[labelIndex].name
        let y = result.columns[valueIndex].name
        if isTemporal(column: labelIndex, in: result) {
            return ChartSpecification(kind: .line, x: x, y: y)
        }
        guard !isNumeric(column: labelIndex, in: result) || isCategoricalInteger(column: labelIndex, in: result) else {
            return nil
        }
        let lowered = question.lowercased()
        let asksForShares = ["share", "percent", "proportion", "breakdown", "distribution", "fraction"]
            .contains { lowered.contains($0) }
        let values = result.rows.compactMap { number($0[valueIndex]) }
        if asksForShares, result.rowCount <= 8, values.allSatisfy({ $0 >= 0 }) {
            return ChartSpecification(kind: .pie, x: x, y: y)
        }
        return ChartSpecification(kind: .bar, x: x, y: y)
    }

    private static func number(_ value: SQLValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: nil
        }
    }

    private static func isNumeric(column index: Int, in result: QueryResult) -> Bool {
        let values = result.rows.map { $0[index] }.filter { $0 != .null }
        return !values.isEmpty && values.allSatisfy { number($0) != nil }
    }

    /// Integer keys such as an id are categories only when the column name says so.
    private static func isCategoricalInteger(column index: Int, in result: QueryResult) -> Bool {
        let name = result.columns[index].name.lowercased()
        return name.hasSuffix("id") || name.contains("name") || name.contains("code")
    }

    private static func isTemporal(column index: Int, in result: QueryResult) -> Bool {
        let name = result.columns[index].name.lowercased()
        let namedForTime = ["date", "year", "month", "day", "week", "quarter", "time", "period"].contains { name.contains($0) }
        let values = result.rows.map { $0[index] }.filter { $0 != .null }
        guard !values.isEmpty else { return false }
        let allDates = values.allSatisfy { value in
            guard case .text(let text) = value else { return false }
            return text.count >= 4 && text.prefix(4).allSatisfy(\.isNumber)
                && (text.count == 4 || text.dropFirst(4).first == "-")
        }
        let allYears = values.allSatisfy { value in
            guard case .integer(let year) = value else { return false }
            return (1800...2200).contains(year)
        }
        return allDates || (namedForTime && (allYears || values.allSatisfy { if case .text = $0 { true } else { false } }))
    }
}
