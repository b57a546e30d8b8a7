import Foundation
import GRDB
import GRDBSQLite

extension SQLExecutor {
    /// Runs one read-only statement and writes every row it returns to a file, as CSV or JSON
    /// Lines (``ExportFormat``), with no row cap and no byte budget: rows are stepped one by one
    /// and written through a fixed buffer, so memory stays the same whatever the result's size.
    ///
    /// The statement is classified and authorized exactly as ``query(_:arguments:maxRows:after:)``
    /// does (the same allowlist, hidden tables and read-only check), in one read transaction
    /// under the statement timeout; the ``SQLExecutionDelegate`` hears of it as of a query, and a
    /// ``MaxRowLimitValidator`` of the policy caps its rows (``ExportSummary/truncated``).
    ///
    /// - Parameters:
    ///   - descriptor: an open file descriptor, written from its current offset; the caller
    ///     opens it, closes it, and removes the file when this throws.
    ///   - chunkBytes: the most bytes of one chunk in ``ExportSummary/chunkStarts``.
    ///   - maxBytes: the most bytes the export may write; beyond, it stops and throws
    ///     ``SwiftDBAIError/invalidRequest(_:)``.
    /// - Throws: as ``query(_:arguments:maxRows:after:)``, and ``SwiftDBAIError/cannotOpen(path:reason:)``
    ///   when the file cannot be written.
    public func export(
        _ sql: String, arguments: SQLArguments = .none, format: ExportFormat, to descriptor: Int32,
        chunkBytes: Int, maxBytes: Int? = nil
    ) async throws(SwiftDBAIError) -> ExportSummary {
        guard let delegate else {
            return try await checkedExport(sql, arguments: arguments, format: format, to: descriptor, chunkBytes: chunkBytes, maxBytes: maxBytes)
        }
        // The delegate hears of an export as of a query: before it runs, and how it ended.
        let statement = try await check(sql)
        try Self.requireRead(statement, arguments: arguments)
        await delegate.willExecuteSQL(statement)
        do {
            let summary = try await checkedExport(
                sql, arguments: arguments, format: format, to: descriptor, chunkBytes: chunkBytes, maxBytes: maxBytes)
            await delegate.didExecuteSQL(statement, outcome: .rows(count: summary.rowCount, truncated: summary.truncated))
            return summary
        } catch {
            await delegate.didExecuteSQL(statement, outcome: .failed(error))
            throw error
        }
    }

    private func checkedExport(
        _ sql: String, arguments: SQLArguments, format: ExportFormat, to descriptor: Int32, chunkBytes: Int, maxBytes: Int?
    ) async throws(SwiftDBAIError) -> ExportSummary {
        let deadline = StatementDeadline(timeout: limits.timeout)
        let rowCap = policy.maximumRowCount
        let span = StatementSpan.start(
            [BoundStatement(sql: sql, arguments: arguments)], operation: .select, table: nil, database: databaseName)
        do {
            let summary = try await reading { db in
                try deadline.armed(on: db.sqliteConnection) {
                    let statement = try self.authorized(sql, in: db)
                    span?.name(after: statement)
                    try Self.requireRead(statement, arguments: arguments)
                    return try Self.write(
                        sql, arguments: arguments, format: format, db: db, rowCap: rowCap, omitting: statement.hiddenResultColumns,
                        sink: ExportSink(descriptor: descriptor, chunkBytes: chunkBytes, maxBytes: maxBytes))
                }
            }
            span?.end(returnedRows: summary.rowCount)
            return summary
        } catch {
            let failure = exportFailure(error, maxBytes: maxBytes, deadline: deadline)
            span?.end(failure)
            throw failure
        }
    }

    /// What an export's failure is, for its caller.
    private func exportFailure(_ error: any Error, maxBytes: Int?, deadline: StatementDeadline) -> SwiftDBAIError {
        switch error {
        case is ExportSink.TooLarge:
            .invalidRequest(
                "The export is larger than \(maxBytes ?? 0) bytes, the most one export may take; nothing was kept. "
                    + "Export fewer rows or columns (a WHERE or LIMIT), in several exports.")
        case let failure as ExportSink.WriteFailed:
            .cannotOpen(path: "the export file", reason: String(cString: strerror(failure.code)))
        default:
            mapped(error, deadline: deadline)
        }
    }

    private static func write(
        _ sql: String, arguments: SQLArguments, format: ExportFormat, db: Database, rowCap: Int?,
        omitting omitted: [Int], sink: ExportSink
    ) throws -> ExportSummary {
        let start = ContinuousClock.now
        let statement = try preparedRead(sql, arguments: arguments, db: db)
        let handle = statement.sqliteStatement
        let kept = ResultReader.keptColumns(statement.columnCount, omitting: omitted)
        let columns = kept.map { index in
            QueryColumn(
                name: statement.columnNames[index],
                declaredType: sqlite3_column_decltype(handle, Int32(index)).map { String(cString: $0) })
        }
        let encoder = ExportRecordEncoder(format: format, columnNames: columns.map(\.name), sources: kept)
        var sink = sink
        var record: [UInt8] = []
        record.reserveCapacity(4096)
        encoder.header(into: &record)
        if !record.isEmpty { try sink.append(record) }
        var rows = 0
        var truncated = false
        let cursor = try Row.fetchCursor(statement)
        while try cursor.next() != nil {
            if let rowCap, rows >= rowCap {
                truncated = true
                break
            }
            record.removeAll(keepingCapacity: true)
            encoder.record(handle, into: &record)
            try sink.append(record)
            rows += 1
        }
        try sink.flush()
        return ExportSummary(
            columns: columns, rowCount: rows, byteCount: sink.written, chunkStarts: sink.finishedChunkStarts,
            splitRecords: sink.splitRecords, elapsed: ContinuousClock.now - start, truncated: truncated)
    }
}
