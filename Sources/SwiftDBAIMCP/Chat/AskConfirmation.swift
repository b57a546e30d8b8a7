import MCP
import SwiftDBAI

/// Asks the user, through the client's elicitation, whether a write that `ask`'s model wrote
/// may run — showing the statement, the number of rows and the first rows it would change.
/// The executor then runs it only if it still changes exactly those rows.
struct AskConfirmation: Sendable {
    let server: ServerReference

    func confirm(_ request: DestructiveOperationRequest) async -> Bool {
        guard let server = server.server else { return false }
        let note = request.changedSincePreviousConfirmation
            ? "The rows changed before the confirmed change could run; nothing was changed. This is the new preview."
            : nil
        var message = "A language model wrote this change to answer a question.\n\n"
        message += WriteConfirmationFlow.elicitationMessage(
            request.statements, operation: request.statement.operation, preview: request.preview, note: note)
        let answer = try? await DBAIServer.elicitation(through: server)(message)
        return answer == .confirmed
    }
}
