import Foundation
import MCP
import SwiftDBAI

/// The `cursor`/`next_cursor` of a read's pages: a ``ResultPosition`` bound to the statement and
/// its values, so that it continues that result and nothing else.
enum ResultCursor {
    static let kind = "query"

    /// The fingerprint of a read: its database, its SQL and its parameters as given.
    static func request(database: String, sql: String, params: Value?) -> UInt64 {
        // (Value is ExpressibleByNilLiteral: say Optional's none, not Value.null.)
        let given: Value? = params.flatMap { value -> Value? in ToolArguments.isNotGiven(value) ? Optional.none : value }
        return PageCursor.fingerprint([kind, database, sql, given.map(canonical) ?? ""])
    }

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
        _ output: inout ToolOutput, result: QueryResult, request: UInt64, mayShift: Bool, naming: ToolNaming
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
            notes.append("More rows: call \(naming.name("query")) again with the same sql and params and cursor: \"\(cursor.encoded)\".")
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
