import Foundation
import SwiftDBAI

/// What a read returned, reduced to what decides whether two statements answer a question alike:
/// the rows as a multiset (order and column names set aside), numbers compared after rounding to
/// six decimals, an integer equal to the same whole real. Two candidate statements with the same
/// signature are two votes for one answer.
struct ResultSignature: Hashable, Sendable {
    /// The rows, each as its values' canonical text, sorted.
    private let rows: [[String]]
    /// True when the read returned no rows.
    var isEmpty: Bool { rows.isEmpty }

    init(_ result: QueryResult) {
        rows = result.rows.map { $0.map(Self.canonical) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private static func canonical(_ value: SQLValue) -> String {
        switch value {
        case .null:
            return "null"
        case .integer(let number):
            return "n" + String(number)
        case .real(let number):
            // Large numbers keep every digit a Double has (scaling them could overflow).
            let rounded = abs(number) < 1e12 ? (number * 1_000_000).rounded() / 1_000_000 : number
            if rounded == rounded.rounded(), abs(rounded) < 9e15 { return "n" + String(Int64(rounded)) }
            return "n" + String(rounded)
        case .text(let text):
            return "t" + text
        case .blob(let data):
            return "b" + data.base64EncodedString()
        }
    }
}
