import MCP
import SwiftDBAI

/// Decides whether a destructive statement written by `ask`'s model may run: always with
/// `--no-confirm`; through the client's elicitation when it declared it; never otherwise.
struct AskConfirmation: Sendable {
    let server: ServerReference
    let session: ClientSession
    let confirms: Bool

    func confirm(_ request: DestructiveOperationRequest, preview executor: SQLExecutor) async -> Bool {
        guard confirms else { return true }
        guard let server = server.server, session.supportsElicitation else { return false }
        let statement = BoundStatement(sql: request.statement.sql, arguments: request.arguments)
        let preview = try? await executor.preview([statement])
        let message = WriteConfirmationFlow.elicitationMessage(
            [statement], operation: request.statement.operation, rowsAffected: preview?.rowsAffected)
        let answer = try? await DBAIServer.elicitation(through: server)(message)
        return answer == .confirmed
    }
}
