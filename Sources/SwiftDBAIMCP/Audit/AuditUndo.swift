import Foundation
import Logging
import MCP
import SwiftDBAI

/// `dbai-mcp audit undo`: the statements that revert a committed write of an audit log, from
/// the rows' values its `pending` line recorded, and, when asked, running them — through the
/// policy the flags give (as the server's would), and only when every row still holds what the
/// write left in it (``SQLExecutor/revert(_:)``).
public struct AuditUndo: Sendable {
    public let entry: AuditEntry
    let changes: RowChanges

    /// - Throws: ``AuditEntryError`` when the entry is not a committed write, or its record
    ///   cannot restore its rows (masked or redacted values, an incomplete record).
    public init(_ entry: AuditEntry) throws(AuditEntryError) {
        guard entry.field("kind")?.stringValue == "write" else {
            throw AuditEntryError("entry \(entry.id) is not a write; there is nothing to undo")
        }
        guard entry.outcome == AuditOutcome.committed.rawValue else {
            throw AuditEntryError(
                "write \(entry.id) is \(entry.outcome), not committed: it changed nothing in the database, so there is nothing to undo")
        }
        let changes = try entry.rowChanges()
        if let reason = changes.incompleteReason {
            throw AuditEntryError("write \(entry.id) cannot be undone from the log: its record does not hold every row it changed (\(reason))")
        }
        guard !changes.rows.isEmpty else { throw AuditEntryError("write \(entry.id) changed no row; there is nothing to undo") }
        self.entry = entry
        self.changes = changes
    }

    /// What ``run(configuration:apply:logger:)`` did.
    public struct Outcome: Sendable {
        /// The statements, values written in (``BoundStatement/sqlWithLiterals``), in order.
        public let statements: [String]
        /// Whether the rows still hold what the write left (``refusal`` nil), checked now.
        public let refusal: String?
        /// The rows the undo changed, when it ran.
        public let applied: MutationResult?
    }

    /// Plans the undo on the configuration's database and, with `apply`, runs it. The undo is
    /// recorded in the configuration's audit log, if any, as a write (`tool` `audit_undo`,
    /// `undoes` the entry's id, `transport` `cli`).
    ///
    /// - Throws: ``DBAIServerConfigurationError`` when the database or audit log cannot be
    ///   opened; ``SwiftDBAIError`` when the undo was refused or failed (nothing changed).
    public func run(configuration: DBAIServerConfiguration, apply: Bool, logger: Logger) async throws -> Outcome {
        guard let database = try ServedDatabase.openAll(configuration).first else { throw DBAIServerConfigurationError.noDatabase }
        let executor = database.executor
        let bound = try await executor.revertStatements(for: changes)
        let statements = bound.map(\.sqlWithLiterals)
        let refusal = await Self.refusal(executor, changes)
        guard apply, refusal == nil else { return Outcome(statements: statements, refusal: refusal, applied: nil) }
        guard let settings = configuration.audit else {
            return Outcome(statements: statements, refusal: nil, applied: try await executor.revert(changes))
        }
        let log = try AuditLog(settings)
        let attempt = AuditAttempt(
            log: log, tool: "audit_undo", client: Self.client, isWrite: true, arguments: nil, logger: logger,
            annotations: ["undoes": .string(entry.id)])
        attempt.setDatabase(database)
        attempt.beginWrite(bound, confirmation: .apply)
        do {
            let result = try await executor.withJournal(attempt.journal(.apply, always: true)).revert(changes)
            attempt.finish(failure: nil)
            return Outcome(statements: statements, refusal: nil, applied: result)
        } catch {
            attempt.finish(failure: (error.code.rawValue, error.description))
            throw error
        }
    }

    /// The client an undo's lines name: the command line, and the system user who ran it.
    static var client: Value {
        var client: [String: Value] = ["transport": "cli", "uid": .int(Int(getuid()))]
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { client["user"] = .string(String(cString: name)) }
        return .object(client)
    }

    /// Why the rows cannot be put back now (they changed since, the policy refuses a
    /// statement), or nil when they can.
    private static func refusal(_ executor: SQLExecutor, _ changes: RowChanges) async -> String? {
        do {
            try await executor.checkRevertible(changes)
            return nil
        } catch {
            guard case .revertRefused(let reason) = error else { return error.description }
            return reason
        }
    }
}
