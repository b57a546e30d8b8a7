import SwiftDBAI

/// Where one audited tool call stands, and which line each of its events writes: a value with
/// no I/O (``AuditAttempt`` writes the lines), so that its transitions are tested one by one.
///
/// A call is a read until it writes. A write's run goes `running → pending → committed`, or ends
/// `rolledBack` (its line written at once, and the call goes on under a new id), or never runs:
/// `awaitingConfirmation` when the call answers with a preview. ``finish(failure:)`` ends the
/// call with the line it still owes, if any.
struct AuditAttemptState: Sendable {
    /// What the call is, for its lines' `kind`.
    enum Kind: String, Sendable {
        case read
        case write
    }

    /// The life of the current run.
    enum Phase: Sendable, Equatable {
        /// Nothing is recorded for this run yet.
        case running
        /// The `pending` line is written, durably: the commit follows.
        case pending
        /// Nothing ran: a confirmation was asked for (a preview and a token, or an
        /// `input_required` result), and the call answers with it.
        case awaitingConfirmation
        /// The run was rolled back, its line written; nothing else happened since.
        case rolledBack(SwiftDBAIError.Code)
        /// The run committed, its line written: the call's outcome.
        case committed
        /// The call's last line is written (or none was owed).
        case finished
    }

    /// The line a call still owes when it ends.
    struct Ending: Sendable, Equatable {
        let outcome: AuditOutcome
        /// Why it was refused or failed: an error code and its message.
        let reason: Reason?
    }

    /// Why a call was refused or failed.
    struct Reason: Sendable, Equatable {
        /// The stable error code (`confirmation_required`, `not_run`, a tool's code).
        let code: String
        /// What happened, for a person.
        let message: String
    }

    /// Shared by the lines of the current run; a new one after a rollback.
    private(set) var id: String
    private(set) var kind: Kind
    private(set) var phase = Phase.running
    /// The statements of the current write.
    private(set) var statements: [BoundStatement] = []
    /// How the current write was confirmed, when its policy asks.
    private(set) var confirmation: AuditConfirmation?
    private let newID: @Sendable () -> String

    init(kind: Kind, newID: @escaping @Sendable () -> String) {
        self.kind = kind
        self.newID = newID
        id = newID()
    }

    /// The call has ended: nothing but ``finish(failure:)`` changes it.
    private var hasOutcome: Bool { phase == .committed || phase == .finished }

    /// The call is about to write `statements` (again, after a rollback: a new run).
    mutating func beginWrite(_ statements: [BoundStatement], confirmation: AuditConfirmation?) {
        kind = .write
        self.statements = statements
        if let confirmation { self.confirmation = confirmation }
        if case .rolledBack = phase { phase = .running }
    }

    /// The call answers with a confirmation request: nothing ran. The callers make it the call's
    /// last event before ``finish(failure:)``; a run that rolled back after it would be the
    /// call's outcome, as any rollback is.
    mutating func awaitConfirmation() {
        guard !hasOutcome else { return }
        phase = .awaitingConfirmation
    }

    /// The `pending` line of `statements` is about to be written, before the commit.
    mutating func prepare(_ statements: [BoundStatement], confirmation: AuditConfirmation) {
        kind = .write
        self.statements = statements
        self.confirmation = confirmation
        if !hasOutcome { phase = .pending }
    }

    /// The run committed: its `committed` line is the call's outcome.
    mutating func commit() {
        phase = .committed
    }

    /// The run of `statements` was rolled back with `code`. Returns the id of the run, whose
    /// outcome line is written now (`refused` when the audit log itself failed); the call goes
    /// on under a new id.
    mutating func rollBack(_ statements: [BoundStatement], code: SwiftDBAIError.Code) -> (id: String, outcome: AuditOutcome) {
        kind = .write
        self.statements = statements
        let ended = id
        id = newID()
        phase = .rolledBack(code)
        return (ended, code == .auditLogFailed ? .refused : .rolledBack)
    }

    /// Ends the call, with the error it ended with (`failure`) or none. Returns the line still
    /// owed: none after a commit, nor after a rollback that was the call's outcome; `refused`
    /// for a write that did not run (why: the failure, the confirmation awaited, or that the
    /// call ended without it); `read` or `failed` for a read.
    mutating func finish(failure: Reason?) -> Ending? {
        let phase = self.phase
        self.phase = .finished
        switch (kind, phase) {
        case (_, .committed), (_, .finished):
            return nil
        case (.write, .rolledBack) where !Self.isConfirmationRefusal(failure?.code):
            // The rollback is the call's outcome, already written — unless the call went on to a
            // confirmation that was declined or refused.
            return nil
        case (.write, .awaitingConfirmation):
            return Ending(outcome: .refused, reason: failure ?? Reason(
                code: SwiftDBAIError.Code.confirmationRequired.rawValue,
                message: "Nothing ran: a preview was returned and the user's confirmation is awaited."))
        case (.write, _):
            return Ending(outcome: .refused, reason: failure ?? Reason(
                code: "not_run", message: "The call ended without running the write."))
        case (.read, _):
            return Ending(outcome: failure == nil ? .read : .failed, reason: failure)
        }
    }

    /// A refusal of a confirmation asked after a run had rolled back.
    static func isConfirmationRefusal(_ code: String?) -> Bool {
        guard let code else { return false }
        return code == SwiftDBAIError.Code.confirmationDeclined.rawValue
            || code == SwiftDBAIError.Code.invalidConfirmationToken.rawValue
    }
}
