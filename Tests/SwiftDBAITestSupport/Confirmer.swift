import SwiftDBAI

/// A delegate that answers every confirmation the same way.
package struct Confirmer: SQLExecutionDelegate {
    package let answer: Bool

    package init(answer: Bool) {
        self.answer = answer
    }

    package func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool { answer }
}
