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
        let span = startSpan(table.map { "\(keyword) \($0)" } ?? keyword, context: context, ofKind: .client)
        guard span.isRecording else { return StatementSpan(span: span) }
        let values = context.recordsSQLValues
        span.updateAttributes { attributes in
            attributes["db.system.name"] = "sqlite"
            attributes["db.namespace"] = database()
            attributes["db.operation.name"] = keyword
            if let table { attributes["db.collection.name"] = table }
            let texts = statements.map { values ? $0.sql : SQLTextRedaction.redacted($0.sql) }
            attributes["db.query.text"] = capped(texts.joined(separator: ";\n"))
            if statements.count > 1 { attributes["db.operation.batch.size"] = statements.count }
            if values, statements.count == 1 {
                for (key, value) in statements[0].arguments.traceValues { attributes["db.query.parameter.\(key)"] = value }
            }
        }
        return StatementSpan(span: span)
    }

    /// `text` cut to at most ``maxQueryTextLength`` bytes of UTF-8, on a character's boundary.
    static func capped(_ text: String) -> String {
        guard text.utf8.count > maxQueryTextLength else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maxQueryTextLength)
        while end > text.startIndex, !text.unicodeScalars.indices.contains(end) { end = text.utf8.index(before: end) }
        return String(text.unicodeScalars[..<end])
    }

    /// Names the span after what the statement was found to do: its table, when it reads or
    /// writes exactly one.
    func name(after statement: ClassifiedStatement) {
        let tables = statement.tablesTouched
        guard tables.count == 1 else { return }
        span.operationName = "\(statement.operation.sqlKeyword) \(tables[0])"
        span.attributes["db.collection.name"] = tables[0]
    }

    /// Ends the span of an access that returned `rows` rows (a read) or changed them (a write).
    func end(returnedRows rows: Int? = nil, affectedRows: Int? = nil) {
        if let rows { span.attributes["db.response.returned_rows"] = rows }
        if let affectedRows { span.attributes["dbai.rows.affected"] = affectedRows }
        span.end()
    }

    /// Ends the span of an access that failed.
    func end(_ error: SwiftDBAIError) {
        span.attributes["error.type"] = error.code.rawValue
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
