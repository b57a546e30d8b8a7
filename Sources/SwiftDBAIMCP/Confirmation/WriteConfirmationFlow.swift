import Foundation
import MCP
import SwiftDBAI

/// Runs the writes of the `insert`, `update` and `delete` tools, confirming destructive ones
/// first:
///
/// 1. with `--no-confirm`, nothing is asked;
/// 2. a `confirm` token issued for exactly these statements runs them (once);
/// 3. a client that declared elicitation is asked through `elicitation/create`, with the
///    statement, the number of rows it would change and the first of them;
/// 4. otherwise nothing runs: the result holds a preview and a single-use token.
///
/// A confirmation covers the rows its preview showed, not only the statement: the write runs
/// only if, inside its own transaction, it changes exactly those rows and they have not changed
/// meanwhile (``ChangeSignature``). Otherwise nothing changes and a new preview is offered.
struct WriteConfirmationFlow: Sendable {
    /// The user's answer to an elicitation.
    enum Answer: Sendable {
        case confirmed
        case declined
    }

    let executor: SQLExecutor
    let tokens: ConfirmationTokenStore
    /// False with `--no-confirm`.
    let confirmsDestructiveWrites: Bool
    /// Asks the user through the client; nil when the client did not declare elicitation.
    let elicit: (@Sendable (_ message: String) async throws -> Answer)?
    /// Rows shown in a preview.
    var previewRowCount = 20

    func run(_ statements: [BoundStatement], operation: SQLOperation, tool: String, token: String?) async throws -> ToolOutput {
        do {
            return try await execute(statements, operation: operation, confirmed: !confirmsDestructiveWrites)
        } catch SwiftDBAIError.confirmationRequired {
            // Destructive and not confirmed yet: nothing ran.
        }
        let fingerprint = Self.fingerprint(tool: tool, statements: statements)
        var changed: SwiftDBAIError?
        if let token {
            switch await tokens.redeem(token, for: fingerprint) {
            case .success(let signature):
                do {
                    return try await execute(statements, operation: operation, confirmed: true, matching: signature)
                } catch SwiftDBAIError.changedSincePreview(let previewed, let now) {
                    changed = .changedSincePreview(previewedRows: previewed, rowsNow: now)
                }
            case .failure(let refusal):
                throw ToolCallError(Self.message(for: refusal, tool: tool), code: "invalid_confirmation_token")
            }
        }
        guard let elicit else {
            let preview = try await self.preview(statements, operation: operation)
            let issued = await tokens.issue(for: fingerprint, signature: preview.signature)
            return confirmationRequest(token: issued, tool: tool, operation: operation, preview: preview, changed: changed)
        }
        for _ in 1...Self.elicitationAttempts {
            let preview = try await self.preview(statements, operation: operation)
            let message = Self.elicitationMessage(statements, operation: operation, preview: preview, note: changed?.description)
            let answer: Answer
            do {
                answer = try await elicit(message)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw ToolCallError("The confirmation request to the client failed (\(error)); nothing was changed.")
            }
            guard answer == .confirmed else {
                throw ToolCallError(
                    "The user did not confirm the \(operation.sqlKeyword); nothing was changed.", code: "confirmation_declined")
            }
            do {
                return try await execute(statements, operation: operation, confirmed: true, matching: preview.signature)
            } catch SwiftDBAIError.changedSincePreview(let previewed, let now) {
                changed = .changedSincePreview(previewedRows: previewed, rowsNow: now)
            }
        }
        throw ToolCallError(changed.map(\.description) ?? "The rows kept changing; nothing was changed.", code: "changed_since_preview")
    }

    /// How many times the user is asked when the rows change between a preview and the write.
    static let elicitationAttempts = 3

    // MARK: - Steps

    /// Runs the statements; a refusal becomes a ``ToolCallError`` (a confirmation request and a
    /// change since the preview stay ``SwiftDBAIError``s for ``run(_:operation:tool:token:)``).
    private func execute(
        _ statements: [BoundStatement], operation: SQLOperation, confirmed: Bool, matching signature: ChangeSignature? = nil
    ) async throws -> ToolOutput {
        let result: MutationResult
        do {
            result = try await executor.execute(statements, expecting: operation, confirmed: confirmed, matching: signature)
        } catch .confirmationRequired(let operation, let tables) {
            throw SwiftDBAIError.confirmationRequired(operation, tables: tables)
        } catch .changedSincePreview(let previewed, let now) {
            throw SwiftDBAIError.changedSincePreview(previewedRows: previewed, rowsNow: now)
        } catch .cancelled {
            throw CancellationError()
        } catch {
            throw ToolCallError(error)
        }
        var text = "\(operation.sqlKeyword): \(result.rowsAffected) row\(result.rowsAffected == 1 ? "" : "s") affected"
        if let rowID = result.lastInsertRowID { text += ", last rowid \(rowID)" }
        return ToolOutput(structured: result.structuredValue, text: text + ".")
    }

    private func preview(_ statements: [BoundStatement], operation: SQLOperation) async throws -> WritePreview {
        do {
            return try await executor.preview(statements, expecting: operation, maxRows: previewRowCount)
        } catch .cancelled {
            throw CancellationError()
        } catch {
            throw ToolCallError(error)
        }
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

    /// The question put to the user: the statements, what they would change, the first rows.
    static func elicitationMessage(
        _ statements: [BoundStatement], operation: SQLOperation, preview: WritePreview?, note: String? = nil
    ) -> String {
        var message = note.map { $0 + "\n\n" } ?? ""
        message += "Confirm this \(operation.sqlKeyword)?"
        if let count = preview?.rowsAffected {
            message += " It would affect \(count) row\(count == 1 ? "" : "s")."
        }
        message += "\n"
        for statement in statements.prefix(3) {
            message += "\n" + statement.sql
            if !statement.arguments.isEmpty, let data = try? JSONEncoder().encode(statement.arguments) {
                message += "  with " + String(decoding: data, as: UTF8.self)
            }
        }
        if statements.count > 3 { message += "\n… and \(statements.count - 3) more statements" }
        if let rows = preview?.affectedRows, rows.rowCount > 0 {
            message += "\n\nRows it would change:\n" + MarkdownTableRenderer(maxCellLength: 60, maxBytes: 4096).render(rows)
        }
        return message
    }

    static func message(for refusal: ConfirmationTokenStore.Refusal, tool: String) -> String {
        let retry = "Call \(tool) again without confirm to get a new token; nothing was changed."
        switch refusal {
        case .unknown: return "The confirmation token is unknown or was already used. " + retry
        case .expired: return "The confirmation token has expired. " + retry
        case .mismatch:
            return "The confirmation token was issued for a different statement or different values; a token confirms exactly one write. " + retry
        }
    }
}
