import Foundation
import Logging
import MCP
import SwiftDBAI
import SwiftDBAIPrimitives

/// The audit record of one tool call: a write attempt (through `insert`, `update`, `delete`, a
/// canned write, or a write `ask`'s model proposed) ends in one line whose outcome is
/// `committed`, `rolled_back` or `refused`; a write that reaches its commit is preceded by a
/// `pending` line with the same id, written durably before the commit. Each run of the
/// statements that is rolled back gets its line at once, and the call goes on under a new id
/// (a confirmation asked again, a model that writes again): every run has exactly one outcome.
/// With `--audit-reads`, every other call ends in a `read` or `failed` line.
final class AuditAttempt: Sendable {
    let log: AuditLog
    let tool: String
    /// The client as the lines name it (``AuditRecord/client(_:origin:)``).
    let client: Value
    private let logger: Logger
    /// Fields every line of the attempt carries besides its own (`undoes`).
    private let annotations: [String: Value]
    /// The call's arguments, kept for a read's line (`--audit-reads`).
    private let arguments: [String: Value]?
    /// Where the call stands (``AuditAttemptState``), and the database it works on.
    private let state: Mutex<(life: AuditAttemptState, database: AuditedDatabase?)>

    /// - Parameter isWrite: the tool writes (a write tool or a canned write); `ask` becomes a
    ///   write attempt when its model proposes a write.
    init(
        log: AuditLog, tool: String, client: Value, isWrite: Bool, arguments: [String: Value]?, logger: Logger,
        annotations: [String: Value] = [:]
    ) {
        self.log = log
        self.annotations = annotations
        self.tool = tool
        self.client = client
        self.logger = logger
        self.arguments = log.settings.recordsReads ? arguments : nil
        state = Mutex((AuditAttemptState(kind: isWrite ? .write : .read, newID: Self.newID), nil))
    }

    @Sendable static func newID() -> String { UUID().uuidString.lowercased() }

    // MARK: - What the call does

    /// The database the call works on.
    func setDatabase(_ database: ServedDatabase) {
        setDatabase(AuditedDatabase(
            name: database.name, file: AuditRecord.absolutePath(database.executor.path),
            protection: database.executor.policy.columnProtection))
    }

    /// The database the call works on, as its lines name it.
    func setDatabase(_ audited: AuditedDatabase) {
        state.withLock { $0.database = audited }
    }

    /// The call is about to write these statements.
    func beginWrite(_ statements: [BoundStatement], confirmation: AuditConfirmation? = nil) {
        state.withLock { $0.life.beginWrite(statements, confirmation: confirmation) }
    }

    /// The write waits for the user's confirmation: nothing ran (a preview and a token, or an
    /// `input_required` result).
    func awaitConfirmation() {
        state.withLock { $0.life.awaitConfirmation() }
    }

    /// The journal of the executor that runs the write, for a write confirmed as `confirmation`
    /// says when its policy asks for a confirmation (or whatever it asks, when `always`).
    func journal(_ confirmation: AuditConfirmation, always: Bool = false) -> AuditJournal {
        AuditJournal(attempt: self, confirmation: confirmation, always: always)
    }

    // MARK: - The journal's lines

    /// Writes the `pending` line, durably, before the commit.
    func prepare(_ write: JournaledWrite, confirmation: AuditConfirmation) throws(AuditLogError) {
        let (record, id) = state.withLock { state in
            state.life.prepare(write.statements, confirmation: confirmation)
            return (self.record(.pending, state), state.life.id)
        }
        var line = record
        line.setChanges(write)
        // The rows' values go in the pending line only: the line a write's record is made of.
        let database = state.withLock { $0.database }
        line.setRowChanges(
            write.rowChanges,
            values: AuditRecord.ValueForm(
                redacting: log.settings.redactsValues, protectedColumns: database?.protectedColumns ?? [:], masksAll: database == nil))
        try log.append(line.bytes, durable: true, opening: id)
    }

    /// Writes the `committed` line before the call answers: in the file (a killed process loses
    /// nothing written), not waited for on the disk — the `pending` line is, and after a power
    /// cut the next start-up completes it from the database. The write is committed whatever
    /// happens here: when the line cannot be written, the `pending` line stands (the next
    /// start-up checks it against the database and completes the log).
    func committed(_ write: JournaledWrite) {
        let (record, id) = state.withLock { state in
            state.life.commit()
            return (self.record(.committed, state), state.life.id)
        }
        var line = record
        line.setChanges(write)
        do {
            try log.append(line.bytes, durable: false, closing: id)
        } catch {
            logger.error("audit: the outcome of committed write \(id) could not be written (\(error.description)); its pending line stands")
        }
    }

    /// The write ran and was rolled back: its outcome is written now, and the call goes on under
    /// a new id. A write the audit log could not record is `refused` (its `pending` line, if any,
    /// could not be written either).
    func rolledBack(_ statements: [BoundStatement], prepared: JournaledWrite?, error: SwiftDBAIError) {
        let (line, id) = state.withLock { state in
            let (id, outcome) = state.life.rollBack(statements, code: error.code)
            var line = self.record(outcome, state, id: id)
            line.setReason(code: error.code.rawValue, message: error.description)
            return (line, id)
        }
        do {
            try log.append(line.bytes, durable: false, closing: prepared == nil ? nil : id)
        } catch {
            logger.error("audit: the rollback of write \(id) could not be recorded (\(error.description))")
        }
    }

    // MARK: - The end of the call

    /// Ends the attempt with the call's result.
    func finish(_ result: CallTool.Result) {
        let code = result._meta?.fields[ToolRegistry.errorCodeKey]?.stringValue
        let message = result.content.first.flatMap { content -> String? in
            if case .text(let text, _, _) = content { return text }
            return nil
        }
        finish(failure: result.isError == true ? (code ?? "error", message ?? "") : nil, structured: result.structuredContent)
    }

    /// Ends the attempt with an error the call threw, or (`failure` nil) a success.
    func finish(failure: (code: String, message: String)?, structured: Value? = nil) {
        let line = state.withLock { state -> AuditRecord? in
            let reason = failure.map { AuditAttemptState.Reason(code: $0.code, message: $0.message) }
            guard let ending = state.life.finish(failure: reason) else { return nil }
            if state.life.kind == .read, !log.settings.recordsReads { return nil }
            var line = record(ending.outcome, state)
            if let reason = ending.reason { line.setReason(code: reason.code, message: reason.message) }
            guard state.life.kind == .read else { return line }
            if let arguments {
                // The statement and values a read was given; other arguments by name only.
                line["arguments"] = .array(arguments.keys.sorted().map { .string($0) })
                if let sql = arguments["sql"]?.stringValue { line["sql"] = .string(sql) }
                if arguments["params"] != nil, let values = try? ToolArguments(arguments).sqlArguments() {
                    line["values"] = AuditRecord.values(
                        values, redacting: log.settings.redactsValues, masking: state.database?.masksValues ?? false)
                }
            }
            if let count = structured?.objectValue?["row_count"]?.intValue { line["row_count"] = .int(count) }
            return line
        }
        guard let line else { return }
        do {
            try log.append(line.bytes, durable: false)
        } catch {
            logger.error("audit: the outcome of \(tool) call could not be written (\(error.description))")
        }
    }

    /// The fields every line of the attempt shares (`id`: the run's, when it is not the current
    /// one).
    private func record(
        _ outcome: AuditOutcome, _ state: (life: AuditAttemptState, database: AuditedDatabase?), id: String? = nil
    ) -> AuditRecord {
        let life = state.life
        var line = AuditRecord(id: id ?? life.id, kind: life.kind.rawValue, tool: tool, client: client, outcome: outcome)
        for (key, value) in annotations { line[key] = value }
        if let database = state.database { line.setDatabase(name: database.name, file: database.file) }
        if life.kind == .write || !life.statements.isEmpty {
            line.setStatements(life.statements, redacting: log.settings.redactsValues, masking: state.database?.masksValues ?? false)
        }
        if let confirmation = life.confirmation, life.kind == .write { line["confirmation"] = .string(confirmation.rawValue) }
        return line
    }
}

/// The database an attempt works on, as its lines name it.
struct AuditedDatabase: Sendable {
    let name: String
    /// The absolute path of the file.
    let file: String
    /// The masked and hidden columns, by table (names case-folded): a row's value in one is
    /// written as `{"masked": true}`.
    let protectedColumns: [String: Set<String>]

    init(name: String, file: String, protection: ColumnProtection) {
        self.name = name
        self.file = file
        var columns: [String: Set<String>] = [:]
        for (table, names) in protection.masked.merging(protection.hidden, uniquingKeysWith: { $0.union($1) }) {
            columns[SQLIdentifier.foldCase(table), default: []].formUnion(names.map(SQLIdentifier.foldCase))
        }
        protectedColumns = columns
    }

    /// The metadata masks or hides columns of the database: bound values are written as
    /// `{"masked": true}` (a statement's text does not say which value goes to which column).
    var masksValues: Bool { !protectedColumns.isEmpty }
}

/// The ``WriteJournal`` of one attempt's executor: it tells the attempt how the write was
/// confirmed.
struct AuditJournal: WriteJournal {
    let attempt: AuditAttempt
    /// How the caller confirmed the write, when its policy asks for a confirmation.
    let confirmation: AuditConfirmation
    /// The confirmation applies whatever the policy (`ask` under `--no-confirm`).
    let always: Bool

    private func confirmation(of write: JournaledWrite) -> AuditConfirmation {
        if write.confirmedByDelegate { return .elicitation }
        return always || write.needsConfirmation ? confirmation : .notNeeded
    }

    func writeWillCommit(_ write: JournaledWrite) throws {
        try attempt.prepare(write, confirmation: confirmation(of: write))
    }

    func writeDidCommit(_ write: JournaledWrite) {
        attempt.committed(write)
    }

    func writeDidRollBack(_ statements: [BoundStatement], prepared: JournaledWrite?, error: SwiftDBAIError) {
        attempt.rolledBack(statements, prepared: prepared, error: error)
    }
}

/// The journal of an `ask` conversation's executor: it records into the attempt of the question
/// being answered (the conversation outlives each call). A write the delegate confirmed was
/// confirmed by elicitation; under `--no-confirm` (`unconfirmed`), none was.
struct LinkedAuditJournal: WriteJournal {
    let link: ConversationLink
    let unconfirmed: Bool

    private var journal: AuditJournal? {
        link.audit.map { $0.journal(unconfirmed ? .noConfirm : .elicitation, always: unconfirmed) }
    }

    func writeWillCommit(_ write: JournaledWrite) throws {
        // A write outside a question has no record to go in: refused rather than unrecorded.
        guard let journal else { throw AuditLogError("the write belongs to no audited call") }
        try journal.writeWillCommit(write)
    }

    func writeDidCommit(_ write: JournaledWrite) {
        journal?.writeDidCommit(write)
    }

    func writeDidRollBack(_ statements: [BoundStatement], prepared: JournaledWrite?, error: SwiftDBAIError) {
        journal?.writeDidRollBack(statements, prepared: prepared, error: error)
    }
}
