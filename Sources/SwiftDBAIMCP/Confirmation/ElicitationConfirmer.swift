import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// Confirms a write by asking the user through the client (`elicitation/create`): the one way
/// writes are confirmed by elicitation, for the `insert`, `update` and `delete` tools and for
/// the writes `ask`'s language model wrote.
///
/// It is the executor's ``SQLExecutionDelegate``: the executor previews the write, this asks
/// the user with the statements, the number of rows and the first rows they would change, and
/// the executor then runs the write only if it still changes exactly those rows. When they
/// changed meanwhile, the user is asked again with the new preview and what changed.
struct ElicitationConfirmer: SQLExecutionDelegate {
    /// The user's answer.
    enum Answer: Sendable {
        case confirmed
        case declined
    }

    /// Asks the user one question through the client.
    typealias Elicit = @Sendable (_ message: String) async throws -> Answer

    let elicit: Elicit
    /// Said first, when someone other than the caller wrote the write (a language model).
    var preamble: String?
    /// Whether the client asked for now can be asked (``SQLExecutionDelegate/canConfirm``).
    var canAsk: @Sendable () -> Bool = { true }
    /// Why the last request to the client failed, when it failed rather than being answered.
    private let failure = Mutex<String?>(nil)

    init(elicit: @escaping Elicit, preamble: String? = nil, canAsk: @escaping @Sendable () -> Bool = { true }) {
        self.elicit = elicit
        self.preamble = preamble
        self.canAsk = canAsk
    }

    var canConfirm: Bool { canAsk() }

    /// Asks the user; a request that fails (or is cancelled) counts as declined.
    func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool {
        var message = preamble.map { $0 + "\n\n" } ?? ""
        message += Self.message(
            request.statements, operation: request.statement.operation, preview: request.preview,
            note: request.changeSincePreviousConfirmation?.description)
        let span = ConfirmationSpan.start(.elicitation, operation: request.statement.operation)
        do {
            let confirmed = try await elicit(message) == .confirmed
            span?.end(confirmed ? .accepted : .declined)
            return confirmed
        } catch {
            span?.end(.failed)
            if !(error is CancellationError) { failure.withLock { $0 = "\(error)" } }
            return false
        }
    }

    /// Why the last request to the client failed (nil when the user answered it).
    var lastFailure: String? { failure.withLock { $0 } }

    /// The question put to the user: the statements, what they would change, the first rows.
    static func message(
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
}
