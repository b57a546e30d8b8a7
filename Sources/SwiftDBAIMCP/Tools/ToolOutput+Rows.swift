import SwiftDBAI

extension ToolOutput {
    /// The output of a read: the structured rows, and a Markdown table kept within the same
    /// byte budget (a result never doubles a large payload); when a limit cut the result, the
    /// text names the flag that raises it.
    static func rows(_ result: QueryResult, limits: ExecutionLimits, budget: AnswerBudget) -> ToolOutput {
        ToolOutput(structured: result.structuredValue, text: text(of: result, limits: limits, budget: budget))
    }

    /// The Markdown rendering of a result within `limits.maxResultBytes`.
    static func text(of result: QueryResult, limits: ExecutionLimits, budget: AnswerBudget) -> String {
        // Room is kept for the notes a page may add (its cursor, warnings).
        var text = MarkdownTableRenderer(maxBytes: max(budget.rowBytes / 2, budget.rowBytes - 1_024)).render(result)
        switch result.truncationReason {
        case .rows?:
            text += " (server limit: --max-rows \(limits.maxRows))."
        case .bytes?:
            text += " (server limit: --max-result-bytes \(budget.maxBytes), rows and their text together)."
        case nil:
            break
        }
        return text
    }
}

extension ToolOutput {
    /// The output with its text cut at a line, saying so, when the structured content and the
    /// text together would exceed the budget (an answer whose parts are not each bounded, such
    /// as `ask`'s: the model's words and statements beside the rows).
    func fitted(to budget: AnswerBudget, reserving reserved: Int = 0) -> ToolOutput {
        let structuredSize = AnswerBudget.size(of: structured) + reserved
        guard structuredSize + AnswerBudget.size(of: text) > budget.available else { return self }
        let note = "\n… (text cut to fit --max-result-bytes \(budget.maxBytes); the structured content holds the whole answer.)"
        var fitted = self
        fitted.text = AnswerBudget.head(of: text, fitting: budget.available - structuredSize, note: note)
        return fitted
    }
}
