import SwiftDBAI
import Tracing

/// The span of a destructive write's confirmation, a child of its request's span: `confirm
/// {DELETE|UPDATE|…}`, with `dbai.confirmation.mode` (`elicitation`: the server asks the client
/// with `elicitation/create` and waits for the user; `request_state`: the 2026-07-28 round trip,
/// a first call answered with a question and its retry carrying the answer; `token`: a preview
/// and a `confirm` token, or the call that redeems it) and `dbai.confirmation.outcome`
/// (`accepted`, `declined`, `asked`: a question or token was issued and the write waits for the
/// answer, `rows_changed`: the rows changed since the preview and a new one was offered,
/// `refused`: a used, expired or foreign state or token, `failed`: the confirmation could not go
/// on — the client's answer never came, the confirmation ledger or the preview failed). A write
/// that fails after it was accepted keeps `accepted`: its statement's span has the error.
///
/// Made only under a traced context; otherwise nothing is made.
struct ConfirmationSpan {
    let span: any Span

    enum Mode: String {
        case elicitation
        case requestState = "request_state"
        case token
    }

    enum Outcome: String {
        case accepted, declined, asked, refused, failed
        case rowsChanged = "rows_changed"
    }

    /// Starts the span of confirming `operation` in `mode` when the caller traces; nil otherwise.
    static func start(_ mode: Mode, operation: SQLOperation) -> ConfirmationSpan? {
        guard let context = ServiceContext.current else { return nil }
        let span = startSpan("confirm \(operation.sqlKeyword)", context: context, ofKind: .internal)
        span.attributes["dbai.confirmation.mode"] = mode.rawValue
        return ConfirmationSpan(span: span)
    }

    func end(_ outcome: Outcome) {
        span.attributes["dbai.confirmation.outcome"] = outcome.rawValue
        span.end()
    }
}
