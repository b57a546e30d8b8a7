import SwiftDBAI
import SwiftDBAIPrimitives

/// Answers questions in plain language about one database: the model writes SQL, SQLite's
/// compiler and the safety policy decide whether it may run, and the answer comes back with the
/// rows, a summary and a suggested chart.
///
/// Pipeline: cached schema → a system prompt with the rules, the schema (`CREATE TABLE` text,
/// keys, descriptions and sample rows) and the user's examples, as much as the model's context
/// allows (`PromptLayout`), that stays byte-identical from question to question, so a model
/// server's prompt cache keeps it → the question, after what is particular to it (the tables it
/// needs on a large schema, the examples most like it when they do not all fit, the stored values
/// it names, the often-NULL columns it names) → SQL from a structured answer, a tool call or
/// text, with its tokens' log-probabilities where the provider gives them → the equivalences of
/// the ``RewritePipeline`` → the same classifier, policy and confirmation as every tool → on a
/// compile or SQLite error (bounded retries): the pipeline's repairs, up to three in a row, then
/// the question asked afresh with only the tables it links to (`SchemaLinker`), then the error
/// fed back; a read that returns no rows or looks wrong (`LiteralCheck`, `KeyComparisonCheck`, or
/// a reading of the question the pipeline's guesses see) gets one more look, the model told why →
/// when their agreement can change how sure the answer is, more statements sampled from the same
/// prompt, and the result most of them return wins (`ResultSignature`) → the answer's
/// ``AnswerConfidence``, from all of the above (`AnswerProgress` holds the steps' state) →
/// summary, asked in the same conversation so only the result is new to the model
/// (model-written, deterministic fallback) → chart detection. Every answer carries the model's
/// SQL, what ran, each rewrite between them, why the model was asked again, what still looks
/// wrong, and how sure it is.
/// Conversations keep a window of earlier turns, so "now only the ones from 2024" refines the
/// previous question.
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

        /// A turn, as kept for follow-ups (and restored from storage).
        public init(question: String, sql: String) {
            self.question = question
            self.sql = sql
        }
    }

    /// The answered questions kept for follow-ups, oldest first (at most the history window).
    public private(set) var turns: [Turn] = []
    /// The prompt layout of the current schema version.
    var layout: (version: Int, layout: PromptLayout)?
    /// The model's context window, once known.
    var contextTokens: Int?
    /// True while ``contextTokens`` is the default because the model did not say its own (asked
    /// again when the next layout is made: its server may have started after this engine).
    var contextTokensAreDefault = false
    /// The column profiles of the current schema version (NULL counts, categories), made once
    /// per version: they feed hints and checks, so values changed by later writes matter little.
    var columnProfiles: (version: Int, profiles: [ColumnProfile])?
    /// The full descriptions of the last table selection (large schemas only).
    var describedSelection: (key: String, text: String)?
    /// The system prompts the model has answered, shared with other engines of the same model.
    private let readPrompts: ReadPrompts
    /// The rewrites of the kinds the configuration allows, in order.
    let pipeline: RewritePipeline
    /// Finds the configuration's examples most like a question.
    private let exampleRetriever: ExampleRetriever
    /// Model calls and tokens of the question being answered.
    private var meter = UsageMeter()
    /// Told each step of the question being answered.
    private(set) var stepObserver: (@Sendable (ChatStep) -> Void)?
    /// One question at a time: the actor alone would let a second question start while the first
    /// waits for the model, and both would miss each other's turn.
    private let questions = TurnQueue(maxShared: 1)

    /// Creates an engine over an executor (its policy, limits and delegate apply to the model's SQL).
    ///
    /// - Parameters:
    ///   - readPrompts: The system prompts the model has already answered. Engines that share one
    ///     model (one per conversation) should share it, so only the first request with a prompt
    ///     gets ``ChatConfiguration/firstRequestTimeout``.
    ///   - history: Turns of an earlier conversation to continue (kept up to the history window),
    ///     for example read back from storage after a restart.
    public init(
        executor: SQLExecutor, model: any LanguageModel, configuration: ChatConfiguration = ChatConfiguration(),
        readPrompts: ReadPrompts = ReadPrompts(), history: [Turn] = []
    ) {
        self.turns = Array(history.suffix(configuration.historyWindow))
        self.executor = executor
        self.model = model
        self.configuration = configuration
        self.readPrompts = readPrompts
        self.pipeline = RewritePipeline.standard.restricted(to: configuration.rewriteKinds)
        self.exampleRetriever = ExampleRetriever(examples: configuration.examples)
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
        _ = try await currentLayout()
    }

    /// Has the model read the system prompt now, so the first question does not wait for it: a
    /// local model on a CPU takes seconds to minutes to read a large schema the first time, and
    /// keeps it in its prompt cache. One short request (one token answered); nothing when the
    /// model has already answered this prompt.
    ///
    /// - Throws: ``ChatError/database(_:)`` when the schema cannot be read, ``ChatError/model(_:)``
    ///   when the model fails.
    public func warmUp() async throws(ChatError) {
        let system = ChatMessage.system(try await currentLayout().system)
        guard !readPrompts.contains(system.content) else { return }
        var request = LanguageModelRequest(
            messages: [system, .user(ChatPrompt.question("How many rows are there?"))],
            options: GenerationOptions(temperature: 0, maxTokens: 1))
        // The context the questions will ask for: Ollama loads the model with it once, not twice.
        request.options.contextTokens = contextTokens
        _ = try await respond(to: request)
    }

    /// Answers one question.
    ///
    /// Questions sent at the same time are answered one after the other, in the order they were
    /// sent: each sees the turns answered before it.
    ///
    /// - Parameter onStep: Told what the engine is doing (writing SQL, running it, summarizing),
    ///   for progress reports; called on the engine, so keep it short.
    /// - Throws: ``ChatError``: the model failed, wrote no SQL, wrote SQL the policy refuses, or
    ///   SQL that kept failing after every retry. Nothing is changed by a failed question.
    ///   Cancelled while waiting for an earlier question: `.model(.cancelled)`.
    public func send(_ question: String, onStep: (@Sendable (ChatStep) -> Void)? = nil) async throws(ChatError) -> ChatResponse {
        let turn = questions.take(.exclusive)
        defer { turn.end() }
        do {
            try await turn.begin()
        } catch {
            throw .model(.cancelled)
        }
        stepObserver = onStep
        defer { stepObserver = nil }
        return try await answer(question)
    }

    private func answer(_ question: String) async throws(ChatError) -> ChatResponse {
        let question = question.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !question.isEmpty else { throw .emptyQuestion }
        meter = UsageMeter()
        let layout = try await currentLayout()
        var messages = [ChatMessage.system(layout.system)]
        for turn in turns.suffix(configuration.historyWindow) {
            messages.append(.user(ChatPrompt.question(turn.question)))
            messages.append(.assistant(turn.sql))
        }
        let historyCount = messages.count
        let examples = exampleRetriever.examples(for: question, limit: configuration.examplesPerQuestion)
        let tables = try await selectedTables(for: question, in: layout, reading: examples)
        let profiles = await currentColumnProfiles(of: layout.schema)
        let found = await storedValues(namedIn: question, schema: layout.schema, profiles: profiles)
        let hints = valueHints(for: question, schema: layout.schema, found: found, profiles: profiles)
        messages.append(.user(ChatPrompt.question(
            question, tables: tables, examples: layout.examplesInSystem ? [] : examples, exampleTokens: layout.exampleTokens,
            hints: hints)))
        let asking = Asking(
            question: question, asked: messages,
            context: RewriteContext(schema: layout.schema, profiles: profiles, question: question),
            relevance: ColumnRelevance(schema: layout.schema, question: question, examples: examples, namedValues: found))
        var progress = AnswerProgress(messages: messages, historyCount: historyCount, maxAttempts: configuration.maxRetries + 1)
        while let attempt = progress.nextAttempt() {
            var request = sqlRequest(progress.messages)
            request.options.temperature = progress.temperature(configured: request.options.temperature, retry: configuration.retryTemperature)
            stepObserver?(.writingSQL(attempt: attempt, readingPrompt: !readPrompts.contains(layout.system)))
            let response: LanguageModelResponse
            do {
                response = try await respond(to: request)
            } catch {
                // The model failed on the second look at a read that ran: that read stands.
                if let standing = progress.standingAnswer, !Task.isCancelled { return await finish(standing, progress, asking) }
                throw error
            }
            guard let written = SQLExtractor.sql(in: response) else {
                progress.wroteNoSQL(.assistant(response.text))
                continue
            }
            var statement = pipeline.equivalences(of: written, in: asking.context)
            do {
                stepObserver?(.runningSQL(attempt: attempt))
                // A second look answers the same read: the model may not turn it into a write.
                let outcome = try await runWithEquivalences(&statement, written: written, readsOnly: progress.isLookingAgain)
                var settled = SettledStatement(
                    sql: statement.sql, modelSQL: written, rewrites: statement.applied, outcome: outcome,
                    conversation: progress.messages + answerMessages(response, sql: statement.sql), attempts: attempt,
                    tokenLogprobs: response.tokenLogprobs)
                if progress.checksDoubts(of: settled) {
                    // No rows, a value the column does not hold, keys of different tables compared or
                    // a reading of the question the statement may have missed: one more look.
                    settled.checkedDoubts = Self.doubts(about: settled.sql, context: asking.context)
                        + (await guessedDoubts(about: settled, context: asking.context))
                }
                switch progress.ran(settled) {
                case .lookAgain: continue
                case .answer(let answer): return await finish(answer, progress, asking)
                }
            } catch where Self.isRetryable(error) {
                // A second look whose statement fails leaves the read that ran.
                if let standing = progress.failed(sql: statement.sql, error: error) { return await finish(standing, progress, asking) }
                if let (repaired, outcome) = await repairedOutcome(of: statement, error: error, context: asking.context) {
                    let settled = SettledStatement(
                        sql: repaired.sql, modelSQL: written, rewrites: repaired.applied, outcome: outcome,
                        conversation: progress.messages + [.assistant(repaired.sql)], attempts: attempt,
                        tokenLogprobs: response.tokenLogprobs)
                    return await finish(settled, progress, asking)
                }
                if progress.canFocus,
                   let focus = await focusedQuestion(question, schema: layout.schema, found: found, room: layout.budget.remaining(after: Array(progress.messages.prefix(historyCount)))) {
                    // Ask afresh with only the linked tables and what the question names.
                    progress.focus(on: focus)
                    continue
                }
                progress.tell(feedback(
                    for: response, sql: statement.sql, error: error, schema: layout.schema,
                    room: layout.budget.remaining(after: progress.messages)))
            } catch {
                // A second look that is refused (or tries to write) leaves the first answer; a
                // cancellation ends the question.
                if let standing = progress.standingAnswer, !Task.isCancelled { return await finish(standing, progress, asking) }
                throw .refused(sql: statement.sql, error: error)
            }
        }
        switch progress.outcome() {
        case .success(let standing): return await finish(standing, progress, asking)
        case .failure(let error): throw error
        }
    }

    /// What stays the same while one question is answered.
    struct Asking: Sendable {
        var question: String
        /// The conversation up to the question, as first asked (candidates are written from it).
        var asked: [ChatMessage]
        var context: RewriteContext
        var relevance: ColumnRelevance
    }

    /// The answer from the statement settled on: other candidates vote when they can change it or
    /// how sure it is (``ChatConfiguration/candidateSampling``), what still looks wrong in it is
    /// looked for, and its confidence is judged from the progress of the answer.
    private func finish(_ settled: SettledStatement, _ progress: AnswerProgress, _ asking: Asking) async -> ChatResponse {
        var chosen = await withDoubts(settled, asking)
        var vote: CandidateVote?
        var reads = await self.reads(of: chosen.sql)
        if chosen.isRead, configuration.candidates > 1 {
            let before = evidence(for: chosen, progress, vote: nil, reads: reads, relevance: asking.relevance)
            if configuration.candidateSampling == .always || confidenceModel.isWorthVoting(before) {
                let secondThoughts = progress.isFocused || progress.secondLookReplaced(with: chosen.sql)
                let (winner, record) = await voted(chosen, asked: asking.asked, context: asking.context, mayReplace: !secondThoughts)
                vote = record
                if winner.sql != chosen.sql {
                    chosen = await withDoubts(winner, asking)
                    reads = await self.reads(of: chosen.sql)
                }
            }
        }
        let evidence = evidence(for: chosen, progress, vote: vote, reads: reads, relevance: asking.relevance)
        var response = await answer(asking.question, chosen)
        if let vote, vote.cast > vote.agreeing {
            response.doubts.append("The model's statements disagree: \(vote.agreeing) of the \(vote.cast) that ran return this result.")
        }
        response.lookedAgainFor = progress.lookedAgainFor
        response.replacedSQL = progress.secondLookReplaced(with: chosen.sql) ? progress.replacedSQL : nil
        response.confidence = Self.confidence(evidence, rewrites: chosen.rewrites, isWrite: !chosen.isRead, model: confidenceModel)
        if let vote {
            response.candidates = vote.runs.map { run in
                ChatResponse.Candidate(
                    sql: run.sql, result: run.group, agreesWithAnswer: run.group == vote.chosenGroup, tokens: run.tokens)
            }
        }
        return response
    }

    /// A read with what looks wrong in it (``doubts(about:context:)`` and the guesses'); the
    /// doubts of a statement already looked at are not looked for again (a guess's statement is
    /// one more query).
    private func withDoubts(_ settled: SettledStatement, _ asking: Asking) async -> SettledStatement {
        guard settled.isRead else { return settled }
        var settled = settled
        if let checked = settled.checkedDoubts {
            settled.doubts = checked
        } else {
            settled.doubts = Self.doubts(about: settled.sql, context: asking.context)
                + (await guessedDoubts(about: settled, context: asking.context))
        }
        return settled
    }

    // MARK: - Steps

    typealias Outcome = SettledStatement.Outcome

    /// Classifies, authorizes and runs the statement: a read as a query, a write through the
    /// executor (its delegate confirms destructive writes).
    /// With `readsOnly`, a statement that would write is not run (for repaired statements).
    func run(_ sql: String, readsOnly: Bool = false) async throws(SwiftDBAIError) -> Outcome {
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

    /// SQL that did not compile or failed in SQLite may be fixed by the model; a policy refusal,
    /// a timeout or a cancellation may not.
    static func isRetryable(_ error: SwiftDBAIError) -> Bool {
        switch error {
        case .rejected(let rejection):
            return [.invalidSQL, .multipleStatements, .emptyStatement].contains(rejection.code)
        case .invalidRequest:
            // A result too wide for the budget: the message says to select fewer columns.
            return true
        case .sqlite:
            return true
        default:
            return false
        }
    }

    /// The messages that tell the model its statement failed, in the form the answer came in.
    /// When it named a table or column that does not exist, the map of tables, columns and
    /// foreign keys comes with the error.
    /// The map is cut to what is left of the context (`room` tokens).
    private func feedback(
        for response: LanguageModelResponse, sql: String, error: SwiftDBAIError, schema: DatabaseSchema, room: Int
    ) -> [ChatMessage] {
        let tables = ParsedStatement(sql, schema: schema).references.map(\.table)
        // What the statement and the error take, and a margin, out of what is left.
        let mapLimit = max(0, min(ChatPrompt.maxMapCharacters, (room - TokenEstimate.tokens(in: sql + error.description) - 120) * 2))
        let text = ChatPrompt.retry(
            error: error.description,
            hint: ChatPrompt.hint(for: SQLiteFailure(error), schema: schema, statementTables: tables, mapLimit: mapLimit))
        if let call = response.toolCalls.first(where: { $0.name == SQLExtractor.toolName }) {
            return [.assistant(response.text, toolCalls: [call]), .tool(text, callID: call.id)]
        }
        return [.assistant(sql), .user(text)]
    }

    /// A request for SQL, asking for the tokens' log-probabilities (a sign of how sure the model
    /// is: ``AnswerConfidence``) and sized to the context.
    func sqlRequest(_ messages: [ChatMessage]) -> LanguageModelRequest {
        var request = plainSQLRequest(messages)
        request.options.logprobs = true
        request.options.contextTokens = request.options.contextTokens ?? contextTokens
        return request
    }

    private func plainSQLRequest(_ messages: [ChatMessage]) -> LanguageModelRequest {
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

    /// The model's answer. A request whose system prompt the model has not answered yet gets
    /// ``ChatConfiguration/firstRequestTimeout``: reading it is the slow part on a local model.
    func respond(to request: LanguageModelRequest) async throws(ChatError) -> LanguageModelResponse {
        var request = request
        let system = request.messages.first { $0.role == .system }?.content ?? ""
        if request.timeout == nil, !readPrompts.contains(system) {
            request.timeout = configuration.firstRequestTimeout
        }
        let span = ModelCallSpan.start(request, to: model)
        do {
            let response = try await model.respond(to: request)
            span?.end(response)
            meter.record(response)
            readPrompts.insert(system)
            return response
        } catch {
            span?.end(error)
            throw .model(error)
        }
    }

    /// The answer from a statement that ran; the turn is remembered for follow-ups.
    private func answer(_ question: String, _ settled: SettledStatement) async -> ChatResponse {
        remember(Turn(question: question, sql: settled.sql))
        let (sql, attempts) = (settled.sql, settled.attempts)
        var response: ChatResponse
        switch settled.outcome {
        case .changes(let result):
            response = ChatResponse(summary: ResultSummarizer.summary(of: result), sql: sql, mutationResult: result, attempts: attempts)
        case .rows(let result):
            var summary = ResultSummarizer.summary(of: result)
            if configuration.summary == .model, let written = await modelSummary(of: result, after: settled.conversation) {
                summary = written
            }
            response = ChatResponse(
                summary: summary, sql: sql, queryResult: result,
                chart: ChartDetector.chart(for: result, question: question), attempts: attempts)
        }
        response.modelSQL = settled.modelSQL
        response.rewrites = settled.rewrites
        response.doubts = settled.doubts
        response.modelCalls = meter.calls
        response.usage = meter.usage
        return response
    }

    /// The model's summary of the result, or nil when it fails or writes nothing usable. It is
    /// asked in the conversation that wrote the SQL, so a prompt cache already holds all of it
    /// but the result.
    private func modelSummary(of result: QueryResult, after conversation: [ChatMessage]) async -> String? {
        var shown = result
        shown.rows = Array(result.rows.prefix(configuration.summaryRowCount))
        shown.truncated = result.truncated || result.rowCount > configuration.summaryRowCount
        let table = MarkdownTableRenderer.summary.render(shown)
        let messages = conversation + [ChatPrompt.reply(ChatPrompt.summary(result: table), to: conversation)]
        var request = LanguageModelRequest(messages: messages, options: configuration.summaryOptions)
        request.options.contextTokens = request.options.contextTokens ?? contextTokens
        stepObserver?(.summarizing)
        guard let response = try? await respond(to: request) else { return nil }
        let text = SQLExtractor.withoutThinking(response.text).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The model's answer as it wrote it, as the next message of the conversation.
    func answerMessages(_ response: LanguageModelResponse, sql: String) -> [ChatMessage] {
        if let call = response.toolCalls.first(where: { $0.name == SQLExtractor.toolName }) {
            return [.assistant(response.text, toolCalls: [call])]
        }
        return [.assistant(response.text.isEmpty ? sql : response.text)]
    }

    private func remember(_ turn: Turn) {
        turns.append(turn)
        if turns.count > configuration.historyWindow {
            turns.removeFirst(turns.count - configuration.historyWindow)
        }
    }
}
