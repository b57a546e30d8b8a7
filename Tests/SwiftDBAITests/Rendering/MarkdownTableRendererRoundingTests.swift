import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

@Suite("Reals in prose summaries")
struct MarkdownTableRendererRoundingTests {
    private func result(_ values: [SQLValue]) -> QueryResult {
        QueryResult(columns: [QueryColumn(name: "v")], rows: values.map { [$0] }, sql: "SELECT v")
    }

    @Test("the summary renderer rounds reals to ten significant digits, in their shortest form",
          arguments: [
              (523.0600000000003, "523.06"), (2328.600000000004, "2328.6"), (-0.30000000000000004, "-0.3"),
              (1.0, "1.0"), (0.000012345678912345, "1.234567891e-05"), (123456789012.5, "123456789000.0"),
              (1e300, "1e+300"), (Double.leastNonzeroMagnitude, "5e-324"), (0.0, "0.0"),
          ])
    func rounds(value: Double, shown: String) {
        #expect(MarkdownTableRenderer.summary.cell(.real(value)) == shown)
    }

    @Test("infinities and NaN are shown as they are")
    func nonFinite() {
        #expect(MarkdownTableRenderer.summary.cell(.real(.infinity)) == "inf")
        #expect(MarkdownTableRenderer.summary.cell(.real(-.infinity)) == "-inf")
        #expect(MarkdownTableRenderer.summary.cell(.real(.nan)) == "nan")
    }

    @Test("tool results keep every digit; integers and text are never rounded")
    func toolResultsExact() {
        let exact = MarkdownTableRenderer().render(result([.real(523.0600000000003)]))
        #expect(exact.contains("| 523.0600000000003 |"))
        let summary = MarkdownTableRenderer.summary.render(result([.integer(1_234_567_890_123), .text("0.30000000000000004")]))
        #expect(summary.contains("| 1234567890123 |") && summary.contains("| 0.30000000000000004 |"))
    }
}
