import Foundation
import MCP
import SwiftDBAI

/// Runs the writes of the `insert`, `update` and `delete` tools, confirming destructive ones
/// first:
///
/// 1. with `--no-confirm`, nothing is asked;
/// 2. a `confirm` token issued for exactly these statements runs them (once);
/// 3. a client that declared elicitation is asked through `elicitation/create`, with the
///    statement and the number of rows it would change;
/// 4. otherwise nothing runs: the result holds a preview and a single-use token.
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
        if let token {
            switch await tokens.redeem(token, for: fingerprint) {
            case .success:
                return try await execute(statements, operation: operation, confirmed: true)
            case .failure(let refusal):
                throw ToolCallError(Self.message(for: refusal, tool: tool), code: "invalid_confirmation_token")
            }
        }
        let preview = try await self.preview(statements, operation: operation)
        if let elicit {
            let answer: Answer
            do {
                answer = try await elicit(Self.elicitationMessage(statements, operation: operation, rowsAffected: preview.rowsAffected))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw ToolCallError("The confirmation request to the client failed (\(error)); nothing was changed.")
            }
            guard answer == .confirmed else {
                throw ToolCallError(
                    "The user did not confirm the \(operation.sqlKeyword); nothing was changed.", code: "confirmation_declined")
            }
            return try await execute(statements, operation: operation, confirmed: true)
        }
        let issued = await tokens.issue(for: fingerprint)
        return confirmationRequest(token: issued, tool: tool, operation: operation, preview: preview)
    }

    // MARK: - Steps

    /// Runs the statements; a refusal becomes a ``ToolCallError`` (a confirmation request stays a
    /// ``SwiftDBAIError`` for ``run(_:operation:tool:token:)`` to handle).
    private func execute(
        _ statements: [BoundStatement], operation: SQLOperation, confirmed: Bool
    ) async throws -> ToolOutput {
        let result: MutationResult
        do {
            result = try await executor.execute(statements, expecting: operation, confirmed: confirmed)
        } catch .confirmationRequired(let operation, let tables) {
            throw SwiftDBAIError.confirmationRequired(operation, tables: tables)
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

    private func confirmationRequest(token: String, tool: String, operation: SQLOperation, preview: WritePreview) -> ToolOutput {
        let seconds = Int(tokens.lifetime.components.seconds)
        let message = "Nothing was changed yet. This \(operation.sqlKeyword) would affect \(preview.rowsAffected) row\(preview.rowsAffected == 1 ? "" : "s"). "
            + "Show the preview to the user; to run it, call \(tool) again with the same arguments and confirm: \"\(token)\" (single use, valid \(seconds / 60) minutes)."
        var previewObject: [String: Value] = ["rows_affected": .int(preview.rowsAffected)]
        var text = message
        if let rows = preview.affectedRows {
            let structured = rows.structuredValue
            previewObject["columns"] = structured.objectValue?["columns"]
            previewObject["rows"] = structured.objectValue?["rows"]
            previewObject["truncated"] = .bool(rows.truncated)
            text += "\n\nRows now in the table that it would change:\n" + MarkdownTableRenderer().render(rows)
        }
        return ToolOutput(
            structured: .object([
                "confirmation_required": true,
                "confirmation_token": .string(token),
                "expires_in_seconds": .int(seconds),
                "message": .string(message),
                "preview": .object(previewObject),
            ]),
            text: text)
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

    static func elicitationMessage(_ statements: [BoundStatement], operation: SQLOperation, rowsAffected: Int?) -> String {
        var message = "Confirm this \(operation.sqlKeyword)?"
        if let count = rowsAffected {
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
