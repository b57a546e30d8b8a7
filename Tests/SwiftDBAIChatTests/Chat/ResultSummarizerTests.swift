import Testing
import SwiftDBAI
@testable import SwiftDBAIChat

@Suite("ResultSummarizer")
struct ResultSummarizerTests {
    @Test("the deterministic summary reads a rounded sum")
    func deterministicSummary() {
        let sum = QueryResult(columns: [QueryColumn(name: "SUM(Total)")], rows: [[.real(2328.600000000004)]], sql: "SELECT SUM(Total)")
        #expect(ResultSummarizer.summary(of: sum) == "SUM(Total): 2328.6.")
    }
}
