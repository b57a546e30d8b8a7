import SwiftDBAI

extension ToolOutput {
    /// The output of a read: the structured rows, and a Markdown table kept within the same
    /// byte budget (a result never doubles a large payload); when a limit cut the result, the
    /// text names the flag that raises it.
    static func rows(_ result: QueryResult, limits: ExecutionLimits) -> ToolOutput {
        ToolOutput(structured: result.structuredValue, text: text(of: result, limits: limits))
    }

    /// The Markdown rendering of a result within `limits.maxResultBytes`.
    static func text(of result: QueryResult, limits: ExecutionLimits) -> String {
        var text = MarkdownTableRenderer(maxBytes: limits.maxResultBytes).render(result)
        switch result.truncationReason {
        case .rows?:
            text += " (server limit: --max-rows \(limits.maxRows))."
        case .bytes?:
            text += " (server limit: --max-result-bytes \(limits.maxResultBytes))."
        case nil:
            break
        }
        return text
    }
}
