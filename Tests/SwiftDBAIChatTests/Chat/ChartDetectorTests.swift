import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("ChartDetector")
struct ChartDetectorTests {
    func result(_ columns: [String], _ rows: [[SQLValue]]) -> QueryResult {
        QueryResult(columns: columns.map { QueryColumn(name: $0) }, rows: rows, sql: "")
    }

    @Test("categories and numbers make a bar chart")
    func bar() {
        let chart = ChartDetector.chart(for: result(["country", "total"], [["USA", 523.06], ["Canada", 303.96], ["France", 195.1]]))
        #expect(chart == ChartSpecification(kind: .bar, x: "country", y: "total"))
    }

    @Test("dates or years make a line chart")
    func line() {
        #expect(ChartDetector.chart(for: result(["month", "sales"], [["2024-01", 10], ["2024-02", 12]]))?.kind == .line)
        #expect(ChartDetector.chart(for: result(["year", "albums"], [[1979, 1], [1980, 1], [1983, 1]]))?.kind == .line)
    }

    @Test("a few shares asked as a share make a pie")
    func pie() {
        let chart = ChartDetector.chart(
            for: result(["genre", "tracks"], [["Rock", 1297], ["Latin", 579], ["Metal", 374]]),
            question: "What share of tracks does each genre have?")
        #expect(chart?.kind == .pie)
    }

    @Test("a single row, a single column or text only make no chart")
    func none() {
        #expect(ChartDetector.chart(for: result(["n"], [[1], [2]])) == nil)
        #expect(ChartDetector.chart(for: result(["a", "b"], [["x", 1]])) == nil)
        #expect(ChartDetector.chart(for: result(["a", "b"], [["x", "y"], ["z", "w"]])) == nil)
    }
}
