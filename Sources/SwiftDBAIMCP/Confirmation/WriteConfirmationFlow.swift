import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// Runs the writes of the `insert`, `update` and `delete` tools, confirming destructive ones
/// first:
///
/// 1. with `--no-confirm`, nothing is asked;
/// 2. a `confirm` token issued for exactly these statements runs them (once);
/// 3. a client that declared elicitation is asked: in the handshake era through
///    `elicitation/create`, with the statement, the number of rows it would change and the first
///    of them (``ElicitationConfirmer``, which also confirms the writes of `ask`); under
///    2026-07-28 by an `InputRequiredResult` that shows the same, answered by a retry
///    (``ConfirmationRoundTrip``);
/// 4. otherwise nothing runs: the result holds a preview and a single-use token.
///
/// A confirmation covers the rows its preview showed, not only the statement: the write runs
/// only if, inside its own transaction, it changes exactly those rows and they have not changed
/// meanwhile (``ChangeSignature``). Otherwise nothing changes and a new preview is offered.
struct WriteConfirmationFlow: Sendable {
    var executor: SQLExecutor
    /// Where tokens are issued and redeemed: the session's memory, or the replicas' shared ledger.
    let tokens: any ConfirmationLedger
    /// False with `--no-confirm`.
    let confirmsDestructiveWrites: Bool
    /// Asks the user through the client; nil when the client did not declare elicitation.
    let elicit: ElicitationConfirmer.Elicit?
    /// The 2026-07-28 round trip of the call; nil in the handshake era.
    var roundTrip: ConfirmationRoundTrip? = nil
    /// The name of the database written (bound into a round trip's state).
    var database = ""
    /// The OAuth caller the call came from (a digest of their issuer and subject), bound into
    /// every confirmation token and round-trip state, so that another caller cannot redeem it;
    /// nil for none.
    var owner: String? = nil
    /// Rows shown in a preview.
    var previewRowCount = 20
    /// The audit record of the call (`--audit-log`); nil records nothing.
    var audit: AuditAttempt? = nil

    /// Runs the write, confirmed first when it is destructive.
    ///
    /// - Throws: ``ToolCallError`` for a bad token, a declined or failed confirmation;
    ///   ``SwiftDBAIError`` when the write is refused or fails (nothing was changed).
    func run(_ statements: [BoundStatement], operation: SQLOperation, tool: String, token: String?) async throws -> ToolOutput {
        audit?.beginWrite(statements, confirmation: confirmsDestructiveWrites ? .notNeeded : .noConfirm)
        do {
            return try await execute(
                statements, operation: operation, confirmed: !confirmsDestructiveWrites,
                confirmation: confirmsDestructiveWrites ? .notNeeded : .noConfirm)
        } catch .confirmationRequired {
            // Destructive and not confirmed yet: nothing ran.
        }
        let fingerprint = Self.fingerprint(tool: tool, statements: statements) + ownerMark
        if token == nil, let roundTrip, roundTrip.elicits {
            // The round trip's own fingerprint: its tokens never pass as a `confirm` argument (the
            // state is opaque, not secret), and a state names its database.
            let roundTripFingerprint = "round-trip\u{1D}\(database)\u{1D}" + fingerprint
            return try await runRoundTrip(statements, operation: operation, fingerprint: roundTripFingerprint, roundTrip: roundTrip)
        }
        var changed: SwiftDBAIError?
        if let token {
            audit?.beginWrite(statements, confirmation: .token)
            let span = ConfirmationSpan.start(.token, operation: operation)
            // Failed unless it ends otherwise (the ledger unavailable).
            var outcome = ConfirmationSpan.Outcome.failed
            defer { span?.end(outcome) }
            let redeemed = try await Self.ledger { () throws(ConfirmationLedgerUnavailable) in try await tokens.redeem(token, for: fingerprint) }
            switch redeemed {
            case .success(let signature):
                do {
                    // The token redeemed is the user's acceptance, whatever the write then does.
                    outcome = .accepted
                    return try await execute(
                        statements, operation: operation, confirmed: true, matching: signature, confirmation: .token)
                } catch .changedSincePreview(let previewed, let now) {
                    outcome = .rowsChanged
                    changed = .changedSincePreview(previewedRows: previewed, rowsNow: now)
                }
            case .failure(let refusal):
                outcome = .refused
                throw ToolCallError(Self.message(for: refusal, tool: tool), code: .invalidConfirmationToken)
            }
        }
        guard let elicit else {
            let span = token == nil ? ConfirmationSpan.start(.token, operation: operation) : nil
            var outcome = ConfirmationSpan.Outcome.failed
            defer { span?.end(outcome) }
            let preview = try await executor.preview(statements, expecting: operation, maxRows: previewRowCount)
            let issued = try await Self.ledger { () throws(ConfirmationLedgerUnavailable) in
                try await tokens.issue(for: fingerprint, signature: preview.signature)
            }
            outcome = .asked
            audit?.beginWrite(statements, confirmation: .token)
            audit?.awaitConfirmation()
            return confirmationRequest(token: issued, tool: tool, operation: operation, preview: preview, changed: changed)
        }
        // The executor previews, asks, and runs only what was confirmed (asking again when the
        // rows changed meanwhile).
        let confirmer = ElicitationConfirmer(elicit: elicit)
        audit?.beginWrite(statements, confirmation: .elicitation)
        do {
            return try await execute(
                statements, operation: operation, through: executor.withDelegate(confirmer), confirmation: .elicitation)
        } catch .confirmationDeclined {
            if let failure = confirmer.lastFailure {
                throw ToolCallError("The confirmation request to the client failed (\(failure)); nothing was changed.")
            }
            throw ToolCallError(
                "The user did not confirm the \(operation.sqlKeyword); nothing was changed.", code: .confirmationDeclined)
        }
    }

    /// The 2026-07-28 confirmation: a retry with the user's answer runs the write if it still
    /// changes exactly the rows previewed; otherwise (first call, rows changed, no answer) an
    /// `InputRequiredResult` with a new preview is thrown.
    private func runRoundTrip(
        _ statements: [BoundStatement], operation: SQLOperation, fingerprint: String, roundTrip: ConfirmationRoundTrip,
        carried: [String: Value] = [:], preamble: String? = nil
    ) async throws -> ToolOutput {
        var changedNote: String?
        audit?.beginWrite(statements, confirmation: .retry)
        let span = ConfirmationSpan.start(.requestState, operation: operation)
        // Refused unless it ends otherwise (a state that does not verify throws).
        var outcome = ConfirmationSpan.Outcome.refused
        defer { span?.end(outcome) }
        if let claim = try roundTrip.claim(fingerprint: fingerprint), let response = roundTrip.response {
            outcome = .failed
            let redeemed = try await Self.ledger { () throws(ConfirmationLedgerUnavailable) in
                try await tokens.redeem(claim.token, for: fingerprint)
            }
            outcome = .refused
            let signature: ChangeSignature?
            switch redeemed {
            case .success(let redeemedSignature):
                signature = redeemedSignature
            case .failure(.expired):
                throw ProtocolError.invalidParams(
                    "Invalid params: requestState has expired. Nothing was changed; call the tool again without requestState for a new preview.")
            case .failure:
                let elsewhere = roundTrip.signer.isShared ? ", or was issued by a replica not sharing this server's --state-dir" : ""
                throw ProtocolError.invalidParams(
                    "Invalid params: requestState was already used (a confirmation runs once, accepted or declined)\(elsewhere). "
                        + "Nothing was changed; call the tool again without requestState for a new preview.")
            }
            guard response == .accepted else {
                outcome = .declined
                throw ToolCallError(
                    "The user did not confirm the \(operation.sqlKeyword); nothing was changed.", code: .confirmationDeclined)
            }
            guard let signature, signature.digest == claim.rowsDigest else {
                throw ProtocolError.invalidParams("Invalid params: requestState does not match the preview it was issued with; nothing was changed.")
            }
            do {
                // Accepted by the user: the span says so even if the write then fails.
                outcome = .accepted
                return try await execute(statements, operation: operation, confirmed: true, matching: signature, confirmation: .retry)
            } catch .changedSincePreview(let previewed, let now) {
                changedNote = SwiftDBAIError.changedSincePreview(previewedRows: previewed, rowsNow: now).description
            }
        }
        // Failed unless the new preview and its state are made and the question is put.
        outcome = .failed
        let preview = try await executor.preview(statements, expecting: operation, maxRows: previewRowCount)
        let issued = try await Self.ledger { () throws(ConfirmationLedgerUnavailable) in
            try await tokens.issue(for: fingerprint, signature: preview.signature)
        }
        let state = roundTrip.state(
            token: issued, fingerprint: fingerprint, signature: preview.signature, lifetime: tokens.lifetime, carried: carried)
        let question = ElicitationConfirmer.message(statements, operation: operation, preview: preview, note: changedNote)
        audit?.awaitConfirmation()
        outcome = changedNote == nil ? .asked : .rowsChanged
        throw roundTrip.inputRequired(message: Self.prefixed(question, with: preamble), state: state)
    }

    /// `text`, after `preamble` and a blank line when there is one.
    private static func prefixed(_ text: String, with preamble: String?) -> String {
        guard let preamble else { return text }
        return preamble + "\n\n" + text
    }

    // MARK: - Writes a language model wrote (`ask`)

    /// A write `ask`'s model wrote, confirmed under 2026-07-28 as the write tools' are: the first
    /// call throws an `InputRequiredResult` whose state carries the statement (signed), so the
    /// retry runs exactly what was previewed without asking the model again. Nil when this call
    /// cannot confirm that way (handshake era, or a client without elicitation).
    ///
    /// - Parameters:
    ///   - question: the question asked; a state answers only the same question.
    ///   - conversation: the conversation the answer belongs to.
    func confirmModelWrite(
        sql: String, operation: SQLOperation, question: String, conversation: String
    ) async throws -> ToolOutput? {
        guard confirmsDestructiveWrites, let roundTrip, roundTrip.elicits else { return nil }
        let statements = [BoundStatement(sql: sql)]
        let fingerprint = "round-trip\u{1D}\(database)\u{1D}" + Self.fingerprint(tool: "ask\u{1F}" + question, statements: statements) + ownerMark
        return try await runRoundTrip(
            statements, operation: operation, fingerprint: fingerprint, roundTrip: roundTrip,
            carried: ["sql": .string(sql), "operation": .string(operation.rawValue), "conversation": .string(conversation)],
            preamble: "A language model wrote this change to answer a question.")
    }

    /// The retry of a model-written write (``confirmModelWrite(sql:operation:question:conversation:)``):
    /// the statement and conversation the signed state carries, and the write's outcome. Nil
    /// when the call carries no state.
    ///
    /// - Throws: -32602 for a state this process did not sign; `InputRequired` again when the
    ///   rows changed; ``ToolCallError`` when the user declined.
    func resumeModelWrite(question: String) async throws -> (sql: String, conversation: String, output: ToolOutput)? {
        guard let roundTrip, roundTrip.elicits, let carried = try roundTrip.carried() else { return nil }
        guard let sql = carried["sql"]?.stringValue, let operation = carried["operation"]?.stringValue.flatMap(SQLOperation.init(rawValue:)),
              let conversation = carried["conversation"]?.stringValue,
              let output = try await confirmModelWrite(sql: sql, operation: operation, question: question, conversation: conversation)
        else {
            throw ProtocolError.invalidParams("Invalid params: requestState was not issued by ask; nothing was changed.")
        }
        return (sql, conversation, output)
    }

    // MARK: - Steps

    /// Runs the statements and describes the result.
    private func execute(
        _ statements: [BoundStatement], operation: SQLOperation, confirmed: Bool = false,
        matching signature: ChangeSignature? = nil, through executor: SQLExecutor? = nil, confirmation: AuditConfirmation
    ) async throws(SwiftDBAIError) -> ToolOutput {
        var executor = executor ?? self.executor
        if let audit { executor = executor.withJournal(audit.journal(confirmation)) }
        let result = try await executor.execute(
            statements, expecting: operation, confirmed: confirmed, matching: signature)
        var text = "\(operation.sqlKeyword): \(result.rowsAffected) row\(result.rowsAffected == 1 ? "" : "s") affected"
        if let rowID = result.lastInsertRowID { text += ", last rowid \(rowID)" }
        return ToolOutput(structured: result.structuredValue, text: text + ".")
    }

    private func confirmationRequest(
        token: String, tool: String, operation: SQLOperation, preview: WritePreview, changed: SwiftDBAIError?
    ) -> ToolOutput {
        let seconds = Int(tokens.lifetime.components.seconds)
        var message = "Nothing was changed yet. This \(operation.sqlKeyword) would affect \(preview.rowsAffected) row\(preview.rowsAffected == 1 ? "" : "s"). "
            + "Show the preview to the user; to run it, call \(tool) again with the same arguments and confirm: \"\(token)\" (single use, valid \(seconds / 60) minutes). "
            + "It runs only if it still changes exactly these rows."
        if let changed { message = changed.description + " " + message }
        var previewObject: [String: Value] = ["rows_affected": .int(preview.rowsAffected)]
        var text = message
        if let rows = preview.affectedRows {
            let structured = rows.structuredValue
            previewObject["columns"] = structured.objectValue?["columns"]
            previewObject["rows"] = structured.objectValue?["rows"]
            previewObject["truncated"] = .bool(rows.truncated)
            text += "\n\nRows now in the table that it would change:\n"
                + MarkdownTableRenderer(maxBytes: executor.limits.maxResultBytes).render(rows)
        }
        var structured: [String: Value] = [
            "confirmation_required": true,
            "confirmation_token": .string(token),
            "expires_in_seconds": .int(seconds),
            "message": .string(message),
            "preview": .object(previewObject),
        ]
        if changed != nil { structured["changed_since_preview"] = true }
        return ToolOutput(structured: .object(structured), text: text)
    }

    // MARK: - Texts

    /// What the owner adds to a fingerprint (nothing without an OAuth caller).
    private var ownerMark: String {
        owner.map { "\u{1D}owner\u{1F}" + $0 } ?? ""
    }

    /// Identifies exactly one write: the tool, each statement and its bound values.
    static func fingerprint(tool: String, statements: [BoundStatement]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let parts = statements.map { statement in
            let values = (try? encoder.encode(statement.arguments)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return statement.sql + "\u{1F}" + values
        }
        return ([tool] + parts).joined(separator: "\u{1E}")
    }

    /// What the ledger answers, its failure as a tool error (nothing ran).
    private static func ledger<T>(_ body: () async throws(ConfirmationLedgerUnavailable) -> T) async throws(ToolCallError) -> T {
        do {
            return try await body()
        } catch {
            throw ToolCallError(error.description)
        }
    }

    static func message(for refusal: ConfirmationRefusal, tool: String) -> String {
        let retry = "Call \(tool) again without confirm to get a new token; nothing was changed."
        switch refusal {
        case .unknown: return "The confirmation token is unknown, was already used, or was dropped among too many pending ones. " + retry
        case .expired: return "The confirmation token has expired. " + retry
        case .mismatch:
            return "The confirmation token was issued for a different statement or different values; a token confirms exactly one write. " + retry
        }
    }
}
