import Foundation
import MCP
import SwiftDBAI

/// The `cursor`/`next_cursor` of a read's pages: a ``ResultPosition`` bound to the statement and
/// its values, so that it continues that result and nothing else.
enum ResultCursor {
    static let kind = "query"

    /// The arguments of a built-in read that do not choose the page (the cursor) or its size
    /// (max_rows).
    static let pagingArguments: Set<String> = ["cursor", "max_rows"]

    /// What a built-in read's result depends on: its arguments as given (those that count as not
    /// given left out), the page's own aside.
    static func identity(of arguments: ToolArguments) -> [String: Value] {
        arguments.values.filter { !pagingArguments.contains($0.key) }
    }

    /// The fingerprint of a read: its database, its tool, and what its result depends on.
    static func request(database: String, tool: String, identity: [String: Value]) -> UInt64 {
        PageCursor.fingerprint([kind, database, tool, canonical(.object(identity))])
    }

    /// Runs a read whose result pages: the position of `cursor` when given, and the paging fields
    /// on the output when the result has more rows or is a later page.
    ///
    /// - Throws: ``ToolCallError`` for a cursor of another read; what `run` throws.
    /// - Parameters:
    ///   - shownAs: the tool's name as the client knows it (prefixed, for a built-in one).
    ///   - identity: what the result depends on, which a cursor is bound to: by default the
    ///     arguments as ``identity(of:)`` keeps them; a canned query's bound values.
    ///   - bound: the values bound to the statement, for the result view (MCP Apps sessions).
    static func pagedRead(
        tool: String, shownAs: String, arguments: ToolArguments, identity: [String: Value]? = nil, bound: SQLArguments,
        context: ToolCallContext, run: (ResultPosition?) async throws -> QueryResult
    ) async throws -> ToolOutput {
        let cursor = try arguments.string("cursor")
        // The fingerprint is made only for a result that pages (a complete read costs nothing more).
        var request: UInt64 {
            Self.request(database: context.database.name, tool: tool, identity: identity ?? Self.identity(of: arguments))
        }
        let position = try cursor.map { (cursor) throws(ToolCallError) in try Self.position(from: cursor, request: request) }
        let result = try await run(position)
        let executor = context.executor
        var output = ToolOutput.rows(result, limits: executor.limits, budget: context.budget)
        if context.showsApps { output.view = ResultViewSource(
            database: context.database.name, sql: result.sql, arguments: bound, result: result) }
        guard result.next != nil || position != nil else { return output }
        let mayShift = try await Self.mayShift(result.sql, executor: executor)
        annotate(&output, result: result, request: request, mayShift: mayShift, tool: shownAs)
        return output
    }

    /// The `cursor` argument of a read tool.
    static let argument = InputSchema.optional(InputSchema.scalar(
        "string", "next_cursor of the previous page of the same call, for the rows after it."))

    /// The position a cursor the client sent back continues from.
    ///
    /// - Throws: ``ToolCallError`` (`invalid_arguments`) for a cursor this server did not make,
    ///   or one made for another statement or other values.
    static func position(from cursor: String, request: UInt64) throws(ToolCallError) -> ResultPosition {
        do {
            let decoded = try PageCursor.decode(cursor, kind: kind, request: request)
            guard let schemaVersion = decoded.schemaVersion, let rows = decoded.rows else { throw PageCursor.Refusal.malformed }
            return ResultPosition(offset: decoded.offset, fingerprint: rows, schemaVersion: schemaVersion)
        } catch {
            let refusal = (error as? PageCursor.Refusal) ?? .malformed
            let reason = refusal == .otherRequest
                ? "The cursor was made for another statement or other params: a cursor continues only the result it came with; "
                    + "leave it out to run this statement from its first row"
                : refusal.description
            throw ToolCallError("Invalid cursor. \(reason).", code: .invalidArguments)
        }
    }

    /// Whether the statement's pages may shift: its order is not provably unique.
    static func mayShift(_ sql: String, executor: SQLExecutor) async throws -> Bool {
        let statement = try await executor.check(sql)
        let schema = try await executor.schema()
        return !OrderUniqueness(schema: schema).isUnique(statement)
    }

    /// Adds the paging fields to a read's output: `next_cursor`, `offset`, and whether the pages
    /// may shift or already did; the text says the same.
    static func annotate(
        _ output: inout ToolOutput, result: QueryResult, request: UInt64, mayShift: Bool, tool: String
    ) {
        guard case .object(var object) = output.structured else { return }
        var notes: [String] = []
        if result.offset > 0 {
            object["offset"] = .int(result.offset)
            notes.append("Rows \(result.offset + 1) to \(result.offset + result.rowCount) of the result.")
        }
        if let next = result.next {
            let cursor = PageCursor(
                kind: kind, offset: next.offset, request: request, schemaVersion: next.schemaVersion, rows: next.fingerprint)
            object["next_cursor"] = .string(cursor.encoded)
            notes.append("More rows: call \(tool) again with the same arguments and cursor: \"\(cursor.encoded)\".")
        }
        if mayShift {
            object["pages_may_shift"] = true
            notes.append("The statement has no ORDER BY that makes its order unique (such as one on the primary key): "
                + "if the data changes between calls, pages may miss or repeat rows.")
        }
        if result.earlierRowsChanged {
            object["earlier_rows_changed"] = true
            notes.append("Warning: the rows before this page are not the ones the earlier pages returned (the data changed, "
                + "or the order is not unique): this page may miss or repeat rows. Run the statement again without cursor for a consistent result.")
        }
        output.structured = .object(object)
        output.text += "\n\n" + notes.joined(separator: " ")
    }

    private static func canonical(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
