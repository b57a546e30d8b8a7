import SwiftDBAI

/// Confirms the writes that `ask` runs, through ``AskConfirmation`` (the client's elicitation).
struct ConfirmingDelegate: SQLExecutionDelegate {
    let confirm: @Sendable (DestructiveOperationRequest) async -> Bool

    func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool {
        await confirm(request)
    }
}
