import SwiftDBAI

extension ChatEngine {
    /// The prompt layout of the current schema version, made once per version for the model's
    /// context (``ChatConfiguration/contextTokens``, else what the model reports, else
    /// ``ChatConfiguration/defaultContextTokens``).
    func currentLayout() async throws(ChatError) -> PromptLayout {
        do {
            let schema = try await executor.schema(includingRowCounts: false)
            if let layout, layout.version == schema.schemaVersion { return layout.layout }
            let context = await resolvedContextTokens()
            let budget = PromptBudget(contextTokens: context, answerTokens: configuration.sqlOptions.maxTokens ?? 400)
            let made = try await PromptLayout.make(
                schema: schema, examples: configuration.examples, sampleRowCount: configuration.sampleRowCount,
                tableLimit: configuration.maxPromptTables, budget: budget,
                allowsWrites: executor.policy.allowlist.allowsWrites, executor: executor)
            layout = (schema.schemaVersion, made)
            describedSelection = nil
            return made
        } catch {
            throw .database(error)
        }
    }

    /// The model's context window: configured, reported by the model (asked until it answers),
    /// or the default.
    func resolvedContextTokens() async -> Int {
        if let contextTokens, !contextTokensAreDefault { return contextTokens }
        var resolved = configuration.contextTokens
        if resolved == nil { resolved = await model.contextWindow() }
        let tokens = resolved ?? ChatConfiguration.defaultContextTokens
        contextTokens = tokens
        contextTokensAreDefault = resolved == nil
        return tokens
    }

    /// For a schema too large to describe whole: the DDL and sample rows of the tables relevant
    /// to this question and the previous one, the most relevant first, as many as fit the
    /// prompt's budget (a table that does not fit in full gets its one line of the schema map).
    /// Nil when the system prompt describes every table.
    func selectedTables(
        for question: String, in layout: PromptLayout, reading examples: [ChatExample]
    ) async throws(ChatError) -> String? {
        let exampleTables = examples.flatMap { ParsedStatement($0.sql, schema: layout.schema).references.map(\.table) }
        guard let names = layout.tables(for: question, previous: turns.last?.question, including: exampleTables), !names.isEmpty
        else { return nil }
        let key = names.map(SQLIdentifier.foldCase).joined(separator: ",")
        if let describedSelection, describedSelection.key == key { return describedSelection.text }
        var parts: [String] = []
        var used = 0
        let budget = layout.selectionTokens
        do {
            for name in names {
                var text = try await executor.schemaDescription(sampleRowCount: configuration.sampleRowCount, tables: [name])
                var tokens = TokenEstimate.tokens(in: text)
                if used + tokens > budget {
                    text = ChatPrompt.schemaMap(layout.schema.restricted(to: [name]))
                    tokens = TokenEstimate.tokens(in: text)
                    guard used + tokens <= budget else { continue }
                }
                parts.append(text)
                used += tokens + 1
            }
        } catch {
            throw .database(error)
        }
        let text = parts.joined(separator: "\n\n")
        describedSelection = (key, text)
        return text
    }
}
