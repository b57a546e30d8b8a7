import SwiftDBAIPrimitives
import Tracing

extension ServiceContext {
    /// True when the spans of the SQLite statements run in this context carry the statements'
    /// values: their text as written and their arguments (`db.query.parameter.<key>`). False by
    /// default: the text has its literals replaced by `?` (``SQLTextRedaction``) and arguments are
    /// left out. Set it on the context of a span to opt in for what runs under it.
    public var recordsSQLValues: Bool {
        get { self[SQLValuesRecorded.self] ?? false }
        set { self[SQLValuesRecorded.self] = newValue }
    }

    private enum SQLValuesRecorded: ServiceContextKey {
        typealias Value = Bool
        static var nameOverride: String? { "dbai.sql.values" }
    }
}

/// The span of one SQLite access an executor makes (a read, or a write's statements in their
/// transaction), per the OpenTelemetry database conventions: `db.system.name` `sqlite`,
/// `db.namespace` (the database file's name), `db.operation.name`, `db.collection.name` (one
/// table), `db.query.text` (values taken out unless ``ServiceContext/recordsSQLValues``),
/// `db.response.returned_rows`, and `error.type` when it fails.
///
/// A span is made only under a traced context (a span is current, as the MCP server's request
/// spans are): otherwise nothing is made and nothing is paid but a task-local read.
struct StatementSpan {
    let span: any Span
    /// The span, when it takes attributes as a list (cast once).
    let recorder: (any SpanAttributeListRecording)?

    /// The most bytes of `db.query.text` (a statement can be megabytes long).
    static let maxQueryTextLength = 4_096

    /// Starts the span of `statements` (one access) when the caller traces; nil otherwise, and
    /// then none of the arguments is evaluated.
    static func start(
        _ statements: @autoclosure () -> [BoundStatement], operation: SQLOperation, table: @autoclosure () -> String?,
        database: @autoclosure () -> String
    ) -> StatementSpan? {
        guard let context = ServiceContext.current else { return nil }
        let statements = statements()
        let table = table()
        let keyword = operation.sqlKeyword
        let span: any Span = tracer.startSpan(table.map { "\(keyword) \($0)" } ?? keyword, context: context, ofKind: .client)
        let recorder = span as? any SpanAttributeListRecording
        guard span.isRecording else { return StatementSpan(span: span, recorder: recorder) }
        let values = context.recordsSQLValues
        var attributes: [(String, SpanAttribute)] = []
        attributes.reserveCapacity(8)
        attributes.append(("db.system.name", .string("sqlite")))
        attributes.append(("db.namespace", .string(database())))
        attributes.append(("db.operation.name", .string(keyword)))
        if let table { attributes.append(("db.collection.name", .string(table))) }
        let text = statements.count == 1
            ? (values ? statements[0].sql : SQLTextRedaction.redacted(statements[0].sql))
            : statements.map { values ? $0.sql : SQLTextRedaction.redacted($0.sql) }.joined(separator: ";\n")
        attributes.append(("db.query.text", .string(capped(text))))
        if statements.count > 1 { attributes.append(("db.operation.batch.size", .int64(Int64(statements.count)))) }
        if values, statements.count == 1 {
            for (key, value) in statements[0].arguments.traceValues { attributes.append(("db.query.parameter.\(key)", .string(value))) }
        }
        span.record(attributes, through: recorder)
        return StatementSpan(span: span, recorder: recorder)
    }

    /// The process's tracer, kept once one is bootstrapped: looking it up (a lock and a cast)
    /// costs more than the rest of a statement's span. Until then it is looked up each time, so a
    /// statement traced before the bootstrap does not keep the no-op tracer.
    static var tracer: any Tracer {
        if let known = bootstrapped.withLock({ $0 }) { return known }
        let current = InstrumentationSystem.tracer
        if !(current is NoOpTracer) { bootstrapped.withLock { $0 = current } }
        return current
    }

    private static let bootstrapped = Mutex<(any Tracer)?>(nil)

    /// `text` cut to at most ``maxQueryTextLength`` bytes of UTF-8, on a character's boundary.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > maxQueryTextLength else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maxQueryTextLength)
        while end > text.startIndex, !text.unicodeScalars.indices.contains(end) { end = text.utf8.index(before: end) }
        return String(text.unicodeScalars[..<end])
    }

    /// Names the span after what the statement was found to do: its table, when it reads or
    /// writes exactly one (for an access started without its table: a read, an export).
    func name(after statement: ClassifiedStatement) {
        // The one table of tablesTouched, without building that sorted union.
        var only: String?
        for table in statement.tablesRead.union(statement.tablesWritten.keys) {
            guard only == nil else { return }
            only = table
        }
        guard let table = only else { return }
        span.operationName = statement.operation.sqlKeyword + " " + table
        span.record([("db.collection.name", .string(table))], through: recorder)
    }

    /// Ends the span of an access that returned `rows` rows (a read) or changed them (a write).
    func end(returnedRows rows: Int? = nil, affectedRows: Int? = nil) {
        if let rows { span.record([("db.response.returned_rows", .int64(Int64(rows)))], through: recorder) }
        if let affectedRows { span.record([("dbai.rows.affected", .int64(Int64(affectedRows)))], through: recorder) }
        span.end()
    }

    /// Ends the span of an access that failed.
    func end(_ error: SwiftDBAIError) {
        span.record([("error.type", .string(error.code.rawValue))], through: recorder)
        span.setStatus(SpanStatus(code: .error, message: error.code.rawValue))
        span.end()
    }
}

extension SQLArguments {
    /// The arguments as `db.query.parameter.<key>` values: the index (from 0) of a positional
    /// one, the name (without its `:`, `@` or `$`) of a named one; a blob by its size.
    var traceValues: [(String, String)] {
        func text(_ value: SQLValue) -> String {
            switch value {
            case .null: "NULL"
            case .integer(let integer): String(integer)
            case .real(let real): String(real)
            case .text(let text): text
            case .blob(let data): "<blob of \(data.count) bytes>"
            }
        }
        switch self {
        case .positional(let values):
            return values.enumerated().map { (String($0.offset), text($0.element)) }
        case .named(let values):
            return values.sorted { $0.key < $1.key }.map { (String($0.key.drop { ":@$".contains($0) }), text($0.value)) }
        }
    }
}
