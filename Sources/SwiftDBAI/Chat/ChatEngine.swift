/// Answers questions in plain language about one database: the model writes SQL, SQLite's
/// compiler and the safety policy decide whether it may run, and the answer comes back with the
/// rows, a summary and a suggested chart.
///
/// Pipeline: cached schema → the tables relevant to the question when the schema is large →
/// prompt with `CREATE TABLE` text, keys and sample rows → SQL from a structured answer, a tool
/// call or text → the same classifier, policy and confirmation as every tool → on a compile or
/// SQLite error (bounded retries): a column on the wrong table alias or a name with spaces left
/// unquoted is repaired without a model call (`ColumnQualifierRepair`, `UnquotedNameRepair`), then the question is asked afresh with only the tables it
/// links to, the stored values it names and the joins between them (`SchemaLinker`), then the
/// error is fed back in that conversation → execution → summary
/// (model-written, deterministic fallback) → chart detection. Conversations keep a window of
/// earlier turns, so "now only the ones from 2024" refines the previous question.
///
/// ```swift
/// let engine = ChatEngine(executor: executor, model: OpenAICompatibleModel(...))
/// let answer = try await engine.send("How many tracks are longer than five minutes?")
/// print(answer.summary, answer.sql)
/// ```
public actor ChatEngine {
    /// Runs every statement the model writes, under its policy and limits.
    public nonisolated let executor: SQLExecutor
    /// The model that writes SQL and summaries.
    public nonisolated let model: any LanguageModel
    /// How the engine talks to the model.
    public nonisolated let configuration: ChatConfiguration

    /// One answered question of the conversation.
    public struct Turn: Sendable, Hashable {
        /// The question as asked.
        public var question: String
        /// The SQL that answered it.
        public var sql: String
    }

    /// The answered questions kept for follow-ups, oldest first (at most the history window).
    public private(set) var turns: [Turn] = []
    private var describedSchema: (key: String, text: String, schema: DatabaseSchema)?
    /// One question at a time: the actor alone would let a second question start while the first
    /// waits for the model, and both would miss each other's turn.
    private let questions = TurnQueue(maxShared: 1)

    /// Creates an engine over an executor (its policy, limits and delegate apply to the model's SQL).
    public init(executor: SQLExecutor, model: any LanguageModel, configuration: ChatConfiguration = ChatConfiguration()) {
        self.executor = executor
        self.model = model
        self.configuration = configuration
    }

    /// Opens a database by path and creates an engine over it.
    ///
    /// - Throws: ``SwiftDBAIError`` when the database cannot be opened.
    public init(
        databasePath: String, model: any LanguageModel, allowlist: OperationAllowlist = .readOnly,
        configuration: ChatConfiguration = ChatConfiguration(), delegate: (any SQLExecutionDelegate)? = nil
    ) throws(SwiftDBAIError) {
        let executor = try SQLExecutor(path: databasePath, policy: SafetyPolicy(allowlist: allowlist), delegate: delegate)
        self.init(executor: executor, model: model, configuration: configuration)
    }

    /// Forgets the conversation (the schema stays cached).
    public func resetConversation() {
        turns.removeAll()
    }

    /// Reads and describes the schema now rather than on the first question.
    ///
    /// - Throws: ``ChatError/database(_:)`` when the schema cannot be read.
    public func prepareSchema() async throws(ChatError) {
        _ = try await schemaText(for: "")
    }

    /// Answers one question.
    ///
    /// Questions sent at the same time are answered one after the other, in the order they were
    /// sent: each sees the turns answered before it.
    ///
    /// - Throws: ``ChatError``: the model failed, wrote no SQL, wrote SQL the policy refuses, or
    ///   SQL that kept failing after every retry. Nothing is changed by a failed question.
    ///   Cancelled while waiting for an earlier question: `.model(.cancelled)`.
    public func send(_ question: String) async throws(ChatError) -> ChatResponse {
        let turn = questions.take(.exclusive)
        defer { turn.end() }
        do {
            try await turn.begin()
        } catch {
            throw .model(.cancelled)
        }
        return try await answer(question)
    }

    private func answer(_ question: String) async throws(ChatError) -> ChatResponse {
        let question = question.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !question.isEmpty else { throw .emptyQuestion }
        let system = ChatMessage.system(ChatPrompt.system(
            schema: try await schemaText(for: question), allowsWrites: executor.policy.allowlist.allowsWrites))
        var messages = [system]
        for turn in turns.suffix(configuration.historyWindow) {
            messages.append(.user(ChatPrompt.question(turn.question)))
            messages.append(.assistant(turn.sql))
        }
        let historyCount = messages.count
        messages.append(.user(ChatPrompt.question(question)))

        var lastFailure: (sql: String, error: SwiftDBAIError)?
        var focused = false
        var fresh = true
        for attempt in 1...(configuration.maxRetries + 1) {
            var request = sqlRequest(messages)
            if !fresh {
                // The same conversation at temperature 0 tends to bring the same mistake back.
                request.options.temperature = max(request.options.temperature ?? 0, configuration.retryTemperature)
            }
            fresh = false
            let response = try await respond(to: request)
            guard let sql = SQLExtractor.sql(in: response) else {
                messages.append(.assistant(response.text))
                messages.append(.user(ChatPrompt.noSQLRetry))
                continue
            }
            do {
                let outcome = try await run(sql)
                remember(Turn(question: question, sql: sql))
                return await answer(question: question, sql: sql, outcome: outcome, system: system, attempts: attempt)
            } catch where Self.isRetryable(error) {
                lastFailure = (sql, error)
                let schema = describedSchema?.schema
                if let schema, let repaired = Self.repair(sql, error: error, schema: schema),
                   let outcome = try? await run(repaired, readsOnly: true) {
                    remember(Turn(question: question, sql: repaired))
                    return await answer(question: question, sql: repaired, outcome: outcome, system: system, attempts: attempt)
                }
                if !focused, let schema, let focus = await focusedQuestion(question, schema: schema) {
                    // Ask afresh with only the linked tables and what the question names.
                    focused = true
                    fresh = true
                    messages = Array(messages.prefix(historyCount)) + [.user(focus)]
                    continue
                }
                messages.append(contentsOf: feedback(for: response, sql: sql, error: error, schema: schema))
            } catch {
                throw .refused(sql: sql, error: error)
            }
        }
        if let lastFailure {
            throw .failed(sql: lastFailure.sql, error: lastFailure.error, attempts: configuration.maxRetries + 1)
        }
        throw .noSQL(attempts: configuration.maxRetries + 1)
    }

    // MARK: - Steps

    private enum Outcome {
        case rows(QueryResult)
        case changes(MutationResult)
    }

    /// Classifies, authorizes and runs the statement: a read as a query, a write through the
    /// executor (its delegate confirms destructive writes).
    /// With `readsOnly`, a statement that would write is not run (for repaired statements).
    private func run(_ sql: String, readsOnly: Bool = false) async throws(SwiftDBAIError) -> Outcome {
        let statement = try await executor.check(sql)
        if readsOnly, statement.operation != .select {
            throw .rejected(SQLRejection(.operationNotAllowed, "A repaired statement may only read."))
        }
        if statement.operation == .select {
            return .rows(try await executor.query(sql))
        }
        return .changes(try await writer.execute(sql))
    }

    /// The executor of the model's writes: every write needs a confirmation unless
    /// ``ChatConfiguration/confirmsWrites`` is off.
    private var writer: SQLExecutor {
        guard configuration.confirmsWrites else { return executor }
        return executor.confirming(executor.policy.mutationPolicy.operationsRequiringConfirmation.union([.insert, .update, .delete]))
    }

    /// The statement with a known small-model mistake repaired, or nil: a column qualified with
    /// the wrong alias, a name with spaces left unquoted.
    private static func repair(_ sql: String, error: SwiftDBAIError, schema: DatabaseSchema) -> String? {
        let message = error.description
        return ColumnQualifierRepair.repair(sql, error: message, schema: schema)
            ?? UnquotedNameRepair.repair(sql, error: message, schema: schema)
    }

    /// SQL that did not compile or failed in SQLite may be fixed by the model; a policy refusal,
    /// a timeout or a cancellation may not.
    private static func isRetryable(_ error: SwiftDBAIError) -> Bool {
        switch error {
        case .rejected(let rejection):
            return [.invalidSQL, .multipleStatements, .emptyStatement].contains(rejection.code)
        case .sqlite:
            return true
        default:
            return false
        }
    }

    /// The messages that tell the model its statement failed, in the form the answer came in.
    /// When it named a table or column that does not exist, the map of tables, columns and
    /// foreign keys comes with the error.
    private func feedback(
        for response: LanguageModelResponse, sql: String, error: SwiftDBAIError, schema: DatabaseSchema?
    ) -> [ChatMessage] {
        let text = ChatPrompt.retry(
            error: error.description, hint: schema.flatMap { ChatPrompt.hint(for: error.description, schema: $0) })
        if let call = response.toolCalls.first(where: { $0.name == SQLExtractor.toolName }) {
            return [.assistant(response.text, toolCalls: [call]), .tool(text, callID: call.id)]
        }
        return [.assistant(sql), .user(text)]
    }

    private func sqlRequest(_ messages: [ChatMessage]) -> LanguageModelRequest {
        var mode = configuration.sqlOutput
        if mode == .automatic {
            mode = model.capabilities.structuredOutput ? .structured : (model.capabilities.toolCalling ? .toolCall : .text)
        }
        switch mode {
        case .structured:
            return LanguageModelRequest(
                messages: messages, responseFormat: .jsonSchema(name: "sql_statement", schema: ChatPrompt.sqlSchema),
                options: configuration.sqlOptions)
        case .toolCall:
            return LanguageModelRequest(messages: messages, tools: [ChatPrompt.sqlTool], options: configuration.sqlOptions)
        case .text, .automatic:
            return LanguageModelRequest(messages: messages, options: configuration.sqlOptions)
        }
    }

    private func respond(to request: LanguageModelRequest) async throws(ChatError) -> LanguageModelResponse {
        do {
            return try await model.respond(to: request)
        } catch {
            throw .model(error)
        }
    }

    private func answer(
        question: String, sql: String, outcome: Outcome, system: ChatMessage, attempts: Int
    ) async -> ChatResponse {
        switch outcome {
        case .changes(let result):
            return ChatResponse(summary: ResultSummarizer.summary(of: result), sql: sql, mutationResult: result, attempts: attempts)
        case .rows(let result):
            var summary = ResultSummarizer.summary(of: result)
            if configuration.summary == .model, let written = await modelSummary(question: question, sql: sql, result: result, system: system) {
                summary = written
            }
            return ChatResponse(
                summary: summary, sql: sql, queryResult: result,
                chart: ChartDetector.chart(for: result, question: question), attempts: attempts)
        }
    }

    /// The model's summary of the result, or nil when it fails or writes nothing usable.
    private func modelSummary(question: String, sql: String, result: QueryResult, system: ChatMessage) async -> String? {
        var shown = result
        shown.rows = Array(result.rows.prefix(configuration.summaryRowCount))
        shown.truncated = result.truncated || result.rowCount > configuration.summaryRowCount
        let table = MarkdownTableRenderer(maxCellLength: 60).render(shown)
        let request = LanguageModelRequest(
            messages: [system, .user(ChatPrompt.summary(question: question, sql: sql, result: table))],
            options: configuration.summaryOptions)
        guard let response = try? await model.respond(to: request) else { return nil }
        let text = SQLExtractor.withoutThinking(response.text).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    private func remember(_ turn: Turn) {
        turns.append(turn)
        if turns.count > configuration.historyWindow {
            turns.removeFirst(turns.count - configuration.historyWindow)
        }
    }

    /// The schema text for a question: everything for small schemas; for large ones, the tables
    /// relevant to this question and the previous one. Cached per schema version and selection.
    private func schemaText(for question: String) async throws(ChatError) -> String {
        let schema: DatabaseSchema
        do {
            schema = try await executor.schema(includingRowCounts: false)
        } catch {
            throw .database(error)
        }
        var selection: Set<String>?
        if schema.tables.count > configuration.maxPromptTables {
            let context = ([turns.last?.question].compactMap { $0 } + [question]).joined(separator: " ")
            selection = Set(TableSelector(limit: configuration.maxPromptTables).select(for: context, in: schema))
        }
        let key = "\(schema.schemaVersion)|" + (selection?.sorted().joined(separator: ",") ?? "*")
        if let describedSchema, describedSchema.key == key { return describedSchema.text }
        do {
            // Tables before views, so a selection that keeps every table starts with the same text.
            let views = Set(schema.tables.filter { $0.kind == .view && selection?.contains($0.name) ?? true }.map(\.name))
            let tables = Set(schema.tables.filter { $0.kind != .view && selection?.contains($0.name) ?? true }.map(\.name))
            var parts: [String] = []
            for names in [tables, views] where !names.isEmpty {
                parts.append(try await executor.schemaDescription(sampleRowCount: configuration.sampleRowCount, tables: names))
            }
            let text = parts.joined(separator: "\n\n")
            describedSchema = (key, text, selection.map { schema.restricted(to: $0) } ?? schema)
            return text
        } catch {
            throw .database(error)
        }
    }
}
