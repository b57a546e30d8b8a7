import Foundation
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("ResultSignature: when two reads answer alike")
struct ResultSignatureTests {
    func result(_ rows: [[SQLValue]], columns: [String] = ["a", "b"]) -> QueryResult {
        QueryResult(columns: columns.map { QueryColumn(name: $0) }, rows: rows, sql: "SELECT …")
    }

    @Test("row order and column names are set aside")
    func orderAndNames() {
        let first = result([[1, "x"], [2, "y"]])
        let second = result([[2, "y"], [1, "x"]], columns: ["id", "name"])
        #expect(ResultSignature(first) == ResultSignature(second))
    }

    @Test("a repeated row counts: the rows are a multiset")
    func repeatedRows() {
        #expect(ResultSignature(result([[1, "x"], [1, "x"]])) != ResultSignature(result([[1, "x"]])))
    }

    @Test("numbers compare after rounding to six decimals; an integer equals the same whole real")
    func numbers() {
        #expect(ResultSignature(result([[.integer(3)]])) == ResultSignature(result([[.real(3.0)]])))
        #expect(ResultSignature(result([[.real(0.1 + 0.2)]])) == ResultSignature(result([[.real(0.3)]])))
        #expect(ResultSignature(result([[.real(2.5)]])) != ResultSignature(result([[.real(2.51)]])))
        #expect(ResultSignature(result([[.real(1e300)]])) == ResultSignature(result([[.real(1e300)]])))
        #expect(ResultSignature(result([[.real(1e303)]])) != ResultSignature(result([[.real(1e304)]])))
        #expect(ResultSignature(result([[.real(-.infinity)]])) != ResultSignature(result([[.real(.infinity)]])))
        #expect(ResultSignature(result([[.integer(Int64.max)]])) != ResultSignature(result([[.integer(Int64.max - 1)]])))
        #expect(ResultSignature(result([[.real(.nan)]])) == ResultSignature(result([[.real(.nan)]])))
    }

    @Test("text, numbers, NULL and blobs stay apart")
    func kinds() {
        let values: [SQLValue] = [.text("1"), .integer(1), .null, .text("null"), .blob(Data([1])), .text("")]
        let signatures = values.map { ResultSignature(result([[$0]])) }
        #expect(Set(signatures).count == values.count)
    }

    @Test("a column more or fewer makes another answer")
    func columnCount() {
        #expect(ResultSignature(result([[1, "x"]])) != ResultSignature(result([[1]])))
    }

    @Test("no rows is empty")
    func empty() {
        #expect(ResultSignature(result([])).isEmpty)
        #expect(!ResultSignature(result([[.null]])).isEmpty)
    }
}
