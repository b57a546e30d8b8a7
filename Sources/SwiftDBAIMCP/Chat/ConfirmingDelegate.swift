import SwiftDBAI

/// Confirms the destructive statements that `ask` runs: through the client's elicitation when
/// it declared it, never otherwise (the answer then says to use the `delete` tool, which offers a
/// confirmation token), always with `--no-confirm`.
struct ConfirmingDelegate: ToolExecutionDelegate {
    let confirm: @Sendable (DestructiveOperationRequest) async -> Bool

    func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool {
        await confirm(request)
    }
}
