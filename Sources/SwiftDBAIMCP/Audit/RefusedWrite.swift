import SwiftDBAI
import SwiftDBAIPrimitives

/// The write statement a read path refused in one call (`query` or `export` with `DELETE …`, a
/// canned read): the audit log records it as a write attempt, `refused`, like any other. A
/// statement counts when SQLite compiles it as a write against the whole schema; SQL that does
/// not compile, or a read refused for another reason, is no write attempt.
final class RefusedWrite: Sendable {
    private let noted = Mutex<(statement: BoundStatement, database: ServedDatabase)?>(nil)

    /// The refused statement and the database it was sent to, once one was noted.
    var statement: (statement: BoundStatement, database: ServedDatabase)? { noted.withLock { $0 } }

    /// Notes `sql` when `error` is a refusal and the statement writes.
    func note(_ sql: String, arguments: SQLArguments, error: any Error, database: ServedDatabase) async {
        guard case .rejected? = error as? SwiftDBAIError, await database.executor.compilesAsWrite(sql) else { return }
        noted.withLock { $0 = (BoundStatement(sql: sql, arguments: arguments), database) }
    }
}

extension ToolCallContext {
    /// Runs a read of `sql`; when the read path refuses it and it is a write, the call's audit
    /// record says so (``RefusedWrite``).
    func reading<T>(_ sql: String, arguments: SQLArguments, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            await refusedWrite?.note(sql, arguments: arguments, error: error, database: database)
            throw error
        }
    }
}
