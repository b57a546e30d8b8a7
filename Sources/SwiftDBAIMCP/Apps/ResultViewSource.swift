import MCP
import SwiftDBAI
import SwiftDBAIChat

/// What the result view needs beyond a read's `structuredContent`, sent in the result's `_meta`
/// (``metaKey``) to sessions that negotiated MCP Apps only: the statement that ran and its
/// values, a cursor for the rows after these through ``ViewRowsTool``, and a suggested chart.
struct ResultViewSource: Sendable {
    /// The name of the database it ran on.
    var database: String
    /// The statement that ran.
    var sql: String
    /// Its bound values.
    var arguments: SQLArguments
    /// Where the rows after this result start; nil when it is complete.
    var next: ResultPosition?
    /// Rows the answer does not hold: a next page, or rows left out to fit (`ask`).
    var rowsMissing: Bool
    /// The chart that suits the rows, when one does.
    var chart: ChartSpecification?

    /// The `_meta` key of the view's fields in a tool result.
    static let metaKey = "io.github.swiftdbai/view"

    /// A read's source: its chart from ``ChartDetector`` (given for `ask`, which chose it).
    init(database: String, sql: String, arguments: SQLArguments, result: QueryResult, chart: ChartSpecification?? = nil) {
        self.database = database
        self.sql = sql
        self.arguments = arguments
        next = result.next
        rowsMissing = result.next != nil
        self.chart = chart ?? ChartDetector.chart(for: result)
    }

    /// The fields: `sql`, `params` (as `query` takes them), `source` (both, as one opaque string
    /// that survives JavaScript's numbers), `database` with several databases, `next_cursor` for
    /// ``ViewRowsTool`` and its name as the client calls it (`rows_tool`), and `chart` (`type`,
    /// `x`, `y`).
    func meta(several: Bool, rowsTool: String) -> Value {
        var fields: [String: Value] = ["sql": .string(sql), "rows_tool": .string(rowsTool)]
        if rowsMissing { fields["rows_missing"] = true }
        let params = Self.params(arguments)
        if let params { fields["params"] = params }
        // A value JSON cannot carry exactly (an infinite real) is left out of paging altogether.
        let pageable = !Self.hasNonFinite(arguments)
        if pageable { fields["source"] = .string(ViewRowsTool.source(sql: sql, params: params)) }
        if several { fields["database"] = .string(database) }
        if let next, pageable {
            let request = ResultCursor.request(
                database: database, tool: ViewRowsTool.toolName, identity: ViewRowsTool.identity(sql: sql, params: params))
            fields["next_cursor"] = .string(PageCursor(
                kind: ResultCursor.kind, offset: next.offset, request: request, schemaVersion: next.schemaVersion,
                rows: next.fingerprint).encoded)
        }
        if let chart {
            fields["chart"] = ["type": .string(chart.kind.rawValue), "x": .string(chart.x), "y": .string(chart.y)]
        }
        return .object(fields)
    }

    static func hasNonFinite(_ arguments: SQLArguments) -> Bool {
        let values: [SQLValue] = switch arguments {
        case .positional(let values): values
        case .named(let values): Array(values.values)
        }
        return values.contains { if case .real(let real) = $0 { !real.isFinite } else { false } }
    }

    /// Bound values as `query`'s `params`: a list for `?` parameters, `{"name", "value"}` pairs
    /// (by name) for named ones; nil when there are none.
    static func params(_ arguments: SQLArguments) -> Value? {
        switch arguments {
        case .positional(let values):
            return values.isEmpty ? nil : .array(values.map(Value.init))
        case .named(let values):
            guard !values.isEmpty else { return nil }
            return .array(values.keys.sorted().map { name in
                ["name": .string(name), "value": Value(values[name] ?? .null)]
            })
        }
    }
}
