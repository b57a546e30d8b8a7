import SwiftDBAIPrimitives
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

@Suite("AuditAttemptState: each transition of an audited call, and the line it still owes")
struct AuditAttemptStateTests {
    /// Ids 1, 2, 3… in the order they are drawn.
    final class Counter: Sendable {
        private let next = Mutex(0)
        func id() -> String { next.withLock { $0 += 1; return "\($0)" } }
    }

    static let delete = [BoundStatement(sql: "DELETE FROM t WHERE id = 1")]
    static let declined = AuditAttemptState.Reason(code: SwiftDBAIError.Code.confirmationDeclined.rawValue, message: "no")

    func state(_ kind: AuditAttemptState.Kind) -> AuditAttemptState {
        let counter = Counter()
        return AuditAttemptState(kind: kind, newID: counter.id)
    }

    @Test("a read ends in read, or failed with its reason; it owes a line once")
    func read() {
        var state = state(.read)
        #expect(state.id == "1" && state.phase == .running)
        #expect(state.finish(failure: nil) == .init(outcome: .read, reason: nil))
        #expect(state.phase == .finished)
        #expect(state.finish(failure: nil) == nil, "a call ends once")

        var failing = self.state(.read)
        let reason = AuditAttemptState.Reason(code: "sql_error", message: "no such table")
        #expect(failing.finish(failure: reason) == .init(outcome: .failed, reason: reason))
    }

    @Test("beginWrite makes the call a write; ended without running, it is refused as not run, or with its failure")
    func writeNotRun() {
        var state = state(.read)
        state.beginWrite(Self.delete, confirmation: .token)
        #expect(state.kind == .write && state.statements == Self.delete && state.confirmation == .token)
        #expect(state.phase == .running)
        #expect(state.finish(failure: nil)?.reason?.code == "not_run")
        #expect(state.finish(failure: nil) == nil)

        var refused = self.state(.write)
        let reason = AuditAttemptState.Reason(code: "rejected", message: "not allowed")
        #expect(refused.finish(failure: reason) == .init(outcome: .refused, reason: reason))
    }

    @Test("beginWrite without a confirmation keeps the one named before")
    func keepsConfirmation() {
        var state = state(.write)
        state.beginWrite(Self.delete, confirmation: .elicitation)
        state.beginWrite(Self.delete, confirmation: nil)
        #expect(state.confirmation == .elicitation)
    }

    @Test("awaitConfirmation: refused as confirmation_required, or with the failure the call ended with")
    func awaitingConfirmation() {
        var state = state(.write)
        state.beginWrite(Self.delete, confirmation: .token)
        state.awaitConfirmation()
        #expect(state.phase == .awaitingConfirmation)
        #expect(state.finish(failure: nil) == .init(outcome: .refused, reason: .init(
            code: SwiftDBAIError.Code.confirmationRequired.rawValue,
            message: "Nothing ran: a preview was returned and the user's confirmation is awaited.")))

        var failed = self.state(.write)
        failed.awaitConfirmation()
        #expect(failed.finish(failure: Self.declined) == .init(outcome: .refused, reason: Self.declined))
    }

    @Test("prepare → pending under the same id; commit → the committed line is the outcome, nothing more is owed")
    func committed() {
        var state = state(.write)
        state.prepare(Self.delete, confirmation: .notNeeded)
        #expect(state.phase == .pending && state.id == "1" && state.confirmation == .notNeeded)
        state.commit()
        #expect(state.phase == .committed && state.id == "1")
        state.awaitConfirmation()
        #expect(state.phase == .committed, "nothing changes a committed call but its end")
        #expect(state.finish(failure: nil) == nil)
        #expect(state.phase == .finished)
    }

    @Test("rollBack returns the run's id and outcome and goes on under a new id; that rollback is the call's outcome")
    func rolledBack() {
        var state = state(.read)
        let (id, outcome) = state.rollBack(Self.delete, code: .changedSincePreview)
        #expect(id == "1" && outcome == .rolledBack)
        #expect(state.id == "2" && state.kind == .write)
        #expect(state.phase == .rolledBack(.changedSincePreview))
        #expect(state.finish(failure: nil) == nil)

        var failed = self.state(.write)
        _ = failed.rollBack(Self.delete, code: .sqliteError)
        #expect(failed.finish(failure: .init(code: "sqlite_error", message: "constraint")) == nil, "the rollback line says it")
    }

    @Test("a rollback because the audit log failed is refused")
    func auditLogFailed() {
        var state = state(.write)
        #expect(state.rollBack(Self.delete, code: .auditLogFailed).outcome == .refused)
    }

    @Test("after a rollback, a declined or refused confirmation still owes its refused line")
    func rollbackThenConfirmationRefused() {
        for code in [SwiftDBAIError.Code.confirmationDeclined, .invalidConfirmationToken] {
            var state = state(.write)
            _ = state.rollBack(Self.delete, code: .changedSincePreview)
            let reason = AuditAttemptState.Reason(code: code.rawValue, message: "no")
            #expect(state.finish(failure: reason) == .init(outcome: .refused, reason: reason))
        }
    }

    @Test("after a rollback, a new preview awaited owes confirmation_required under the new id")
    func rollbackThenPreview() {
        var state = state(.write)
        _ = state.rollBack(Self.delete, code: .changedSincePreview)
        state.awaitConfirmation()
        #expect(state.id == "2")
        #expect(state.finish(failure: nil)?.reason?.code == SwiftDBAIError.Code.confirmationRequired.rawValue)
    }

    @Test("after a rollback, beginWrite starts a new run: ended without running, it is not_run")
    func rollbackThenNewRun() {
        var state = state(.write)
        _ = state.rollBack(Self.delete, code: .changedSincePreview)
        state.beginWrite(Self.delete, confirmation: nil)
        #expect(state.phase == .running)
        #expect(state.finish(failure: nil)?.reason?.code == "not_run")
    }

    @Test("a rollback after a confirmation was asked for is the call's outcome, as any rollback is")
    func previewThenRollback() {
        var state = state(.write)
        state.awaitConfirmation()
        _ = state.rollBack(Self.delete, code: .changedSincePreview)
        #expect(state.finish(failure: nil) == nil)
    }

    @Test("after a rollback, a new run that commits is the outcome")
    func rollbackThenCommit() {
        var state = state(.write)
        _ = state.rollBack(Self.delete, code: .sqliteError)
        state.prepare(Self.delete, confirmation: .elicitation)
        #expect(state.phase == .pending && state.id == "2")
        state.commit()
        #expect(state.finish(failure: nil) == nil)
    }
}
