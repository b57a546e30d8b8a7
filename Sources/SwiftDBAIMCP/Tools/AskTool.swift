import MCP
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

/// `ask`: a question in plain language, answered by the ``ChatEngine`` with SQL that goes through
/// the same policy as every other tool.
struct AskTool: DatabaseTool {
    let name = "ask"
    let operation = SQLOperation.select
    let showsResultView = true
    let scope = DatabaseScope.optional

    func isAvailable(_ availability: ToolAvailability) -> Bool {
        availability.hasLanguageModel
    }

    var definition: Tool {
        Tool(
            name: name,
            title: "Ask the database in plain language",
            description: """
                Answers a question about the data in plain language: a language model writes one SQLite statement, the \
                server checks and runs it under the same rules as the other tools, and returns a short answer, the SQL \
                that ran (sql) and the one the model wrote (model_sql) with every rewrite between them, the rows, a \
                suggested chart, how sure the answer is (confidence: high, or low when it should be checked, with \
                confidence_reasons) and what to check before trusting it (doubts). Pass the conversation_id of an \
                earlier answer to ask a follow-up ("now only the ones from 2024").
                """,
            inputSchema: InputSchema.object([
                "question": InputSchema.scalar("string", "The question, in plain language."),
                "conversation_id": InputSchema.optional(InputSchema.scalar(
                    "string", "The conversation_id of an earlier answer, to ask a follow-up; null for a new conversation.")),
            ]),
            annotations: .init(readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false),
            outputSchema: ToolSchemas.askOutput)
    }

    func call(_ arguments: ToolArguments, context: ToolCallContext) async throws -> ToolOutput {
        let question = try arguments.requiredString("question")
        guard let chat = context.chat else {
            throw ToolCallError(ToolRegistry.unavailableMessage(named: context.naming.name(name)), code: .noLanguageModel)
        }
        let database = context.database
        if let resumed = try await context.modelWrites.resumeModelWrite(question: question) {
            // 2026-07-28: the retry of a confirmation; the statement comes signed from the first call.
            return Self.modelWriteOutput(resumed.output, sql: resumed.sql, conversation: resumed.conversation).fitted(to: context.budget)
        }
        let (id, engine, link) = try await chat.conversations.engine(
            for: try arguments.string("conversation_id"), database: database.name, owner: chat.owner
        ) { link, history in
            chat.makeEngine(database, link, history)
        }
        let response: ChatResponse
        do {
            let step = Mutex<ChatStep?>(nil)
            response = try await link.answering(chat.peer, audit: context.writes.audit, canElicit: chat.canElicit) {
                let answer = try await ProgressReporter.reporting(context.progress, status: { step.withLock { $0 }?.description }) {
                    try await engine.send(question) { current in step.withLock { $0 = current } }
                }
                // Kept in the conversation's turn: a later question's turns are never overwritten.
                await chat.conversations.answered(id, owner: chat.owner)
                return answer
            }
        } catch ChatError.refused(let sql, let refusal) {
            // The model proposed a write that did not run (yet): an attempt all the same.
            // Only a write that never ran (a run that rolled back has its line): refused by the
            // policy — statements refused whatever it says (DROP, ATTACH…) count too — or awaiting a
            // confirmation, or declined.
            if let audit = context.writes.audit, await Self.isUnrunWrite(sql, refusal: refusal, executor: context.modelWrites.executor) {
                audit.beginWrite([BoundStatement(sql: sql)], confirmation: refusal.code == .confirmationDeclined ? .elicitation : nil)
            }
            if case .confirmationRequired(let operation, _) = refusal,
               let output = try await context.modelWrites.confirmModelWrite(sql: sql, operation: operation, question: question, conversation: id) {
                return Self.modelWriteOutput(output, sql: sql, conversation: id).fitted(to: context.budget)
            }
            throw Self.unconfirmedWrite(sql: sql, error: refusal, naming: context.naming) ?? ChatError.refused(sql: sql, error: refusal)
        } catch ChatError.failed(let sql, let error, let attempts) {
            // The model's last statement was refused (a write to a table it may not see looks
            // like one that does not exist), never run: a write attempt when it writes.
            if case .rejected = error, let audit = context.writes.audit, await context.modelWrites.executor.compilesAsWrite(sql) {
                audit.beginWrite([BoundStatement(sql: sql)])
            }
            throw ChatError.failed(sql: sql, error: error, attempts: attempts)
        }
        let structured = Self.bounded(Self.structured(response, conversationID: id), to: context.budget.available - 512)
        var output = ToolOutput(
            structured: structured, text: Self.text(response, limits: context.executor.limits, budget: context.budget)
        ).fitted(to: context.budget)
        if context.showsApps, let rows = response.queryResult {
            var view = ResultViewSource(
                database: database.name, sql: response.sql, arguments: .none, result: rows, chart: .some(response.chart))
            if structured.objectValue?["row_count"]?.intValue != rows.rowCount {
                // Rows left out to fit: the view says so, and pages from the start, not past them.
                view.next = nil
                view.rowsMissing = true
            }
            output.view = view
        }
        return output
    }

    /// With several databases and none named: the database of the conversation being followed
    /// up, else the one the question is about.
    func callAcrossDatabases(_ arguments: ToolArguments, catalog: DatabaseCatalog) async throws -> ToolOutput {
        let question = try arguments.requiredString("question")
        var chosen: ServedDatabase?
        if let id = try arguments.string("conversation_id"), let chat = catalog.chat, let name = await chat.conversations.database(of: id, owner: chat.owner) {
            chosen = catalog.database(named: name)
        }
        if chosen == nil {
            var candidates: [DatabaseChooser.Candidate] = []
            for database in catalog.databases {
                candidates.append(.init(
                    name: database.name, description: database.description, schema: try await database.executor.schema()))
            }
            chosen = DatabaseChooser().choose(question, among: candidates).flatMap(catalog.database(named:))
        }
        guard let chosen else {
            throw ToolCallError(
                "The question does not say which database it is about: give database, one of \(catalog.names.joined(separator: ", ")).",
                code: .invalidArguments)
        }
        var output = try await call(arguments, context: catalog.context(chosen))
        guard case .object(var structured) = output.structured else { return output }
        structured["database"] = .string(chosen.name)
        output.structured = .object(structured)
        output.text = "Database: \(chosen.name)\n\n" + output.text
        return output
    }

    /// True when the refused statement is a write that did not run: confirmation asked or
    /// declined, or refused by the policy (a statement SQLite compiles as a write, as for
    /// ``RefusedWrite``).
    static func isUnrunWrite(_ sql: String, refusal: SwiftDBAIError, executor: SQLExecutor) async -> Bool {
        switch refusal {
        case .confirmationRequired, .confirmationDeclined:
            return true
        case .rejected:
            return await executor.compilesAsWrite(sql)
        default:
            return false
        }
    }

    /// The answer of a model-written write the user confirmed (2026-07-28 round trip).
    static func modelWriteOutput(_ write: ToolOutput, sql: String, conversation: String) -> ToolOutput {
        let affected = write.structured.objectValue?["rows_affected"] ?? 0
        let answer = "The change the language model wrote ran, confirmed by the user: " + write.text
        return ToolOutput(
            structured: [
                "answer": .string(answer), "sql": .string(sql), "model_sql": .string(sql), "rewrites": [], "looked_again_for": [],
                "doubts": [], "columns": [], "rows": [], "row_count": 0, "rows_affected": affected, "conversation_id": .string(conversation),
                "confidence": "high",
                "confidence_reasons": [[
                    "code": .string(AnswerConfidence.Reason.Code.write.rawValue),
                    "message": "The user confirmed this change after seeing what it would change.", "supports_answer": true,
                ]],
            ],
            text: answer + "\n\nSQL: " + sql)
    }

    /// The answer when the model's statement is a write that was not confirmed: it shows the
    /// statement and says which tool runs it by hand.
    static func unconfirmedWrite(sql: String, error: SwiftDBAIError, naming: ToolNaming = .plain) -> ToolCallError? {
        switch error {
        case .confirmationRequired(let operation, _):
            return ToolCallError(
                "Answering this needs a change to the data, which was not made: a language model wrote it, and this client "
                    + "cannot ask the user to confirm it (it does not support elicitation). The statement:\n\n\(sql)\n\n"
                    + "To make the change, call the \(naming.name(operation.rawValue)) tool with sql set to this statement: it shows what would change "
                    + "and asks for confirmation where needed.",
                code: .confirmationRequired)
        case .confirmationDeclined:
            return ToolCallError(
                "The user did not confirm the change the language model wrote; nothing was changed. The statement:\n\n\(sql)",
                code: .confirmationDeclined)
        case .changedSincePreview:
            return ToolCallError(error.description + " The statement:\n\n\(sql)", code: .changedSincePreview)
        default:
            return nil
        }
    }

    static func structured(_ response: ChatResponse, conversationID: String) -> Value {
        var object: [String: Value] = [
            "answer": .string(response.summary),
            "sql": .string(response.sql),
            "model_sql": .string(response.modelSQL),
            "doubts": .array(response.doubts.map { .string($0) }),
            "looked_again_for": .array(response.lookedAgainFor.map { .string($0) }),
            "rewrites": .array(response.rewrites.map { rewrite in
                [
                    "rule": .string(rewrite.rule), "kind": .string(rewrite.kind.rawValue),
                    "before": .string(rewrite.before), "after": .string(rewrite.after),
                ]
            }),
            "conversation_id": .string(conversationID),
            "attempts": .int(response.attempts),
        ]
        object.merge(confidence(of: response)) { $1 }
        if let rows = response.queryResult, case .object(let result) = rows.structuredValue {
            object["columns"] = result["columns"]
            object["rows"] = result["rows"]
            object["row_count"] = result["row_count"]
            object["truncated"] = result["truncated"]
            object["truncated_by"] = result["truncated_by"]
            object["clipped_cells"] = result["clipped_cells"]
        } else {
            object["columns"] = []
            object["rows"] = []
        }
        var usage: [String: Value] = ["model_calls": .int(response.modelCalls)]
        if let tokens = response.usage {
            usage["prompt_tokens"] = .int(tokens.promptTokens)
            usage["completion_tokens"] = .int(tokens.completionTokens)
            if let cached = tokens.cachedPromptTokens { usage["cached_prompt_tokens"] = .int(cached) }
        }
        object["usage"] = .object(usage)
        if let replaced = response.replacedSQL { object["replaced_sql"] = .string(replaced) }
        if let mutation = response.mutationResult {
            object["rows_affected"] = .int(mutation.rowsAffected)
        }
        if let chart = response.chart {
            object["chart"] = ["type": .string(chart.kind.rawValue), "x": .string(chart.x), "y": .string(chart.y)]
        }
        return .object(object)
    }

    /// The answer's confidence fields: `confidence`, `confidence_reasons`, `confidence_score`,
    /// `confidence_evidence`, and `candidates` when there was a vote.
    static func confidence(of response: ChatResponse) -> [String: Value] {
        let confidence = response.confidence
        let evidence = confidence.evidence
        var signals: [String: Value] = [
            "candidates_written": .int(evidence.candidatesWritten), "candidates_cast": .int(evidence.candidatesCast),
            "candidates_agreeing": .int(evidence.candidatesAgreeing), "failed_statements": .int(evidence.failedStatements),
            "repaired": .bool(evidence.repaired), "asked_afresh": .bool(evidence.askedAfresh), "looked_again": .bool(evidence.lookedAgain),
            "replaced": .bool(evidence.replaced), "empty_result": .bool(evidence.emptyResult), "null_result": .bool(evidence.nullResult),
            "doubts": .int(evidence.doubts), "unrelated_columns": .array(evidence.unrelatedColumns.map { .string($0) }),
            "tables_read": .int(evidence.tablesRead),
        ]
        if let tokens = evidence.tokens {
            signals["token_logprob_min"] = .double(tokens.minLogprob)
            signals["token_logprob_mean"] = .double(tokens.meanLogprob)
            signals["hesitations"] = .int(tokens.hesitations)
        }
        var fields: [String: Value] = [
            "confidence": .string(confidence.level.rawValue),
            "confidence_reasons": .array(confidence.reasons.map { reason in
                ["code": .string(reason.code.rawValue), "message": .string(reason.message), "supports_answer": .bool(reason.supportsAnswer)]
            }),
            "confidence_score": .double((confidence.score * 1_000).rounded() / 1_000),
            "confidence_evidence": .object(signals),
        ]
        if !response.candidates.isEmpty {
            fields["candidates"] = .array(response.candidates.map { candidate in
                var fields: [String: Value] = [
                    "sql": candidate.sql.map { .string($0) } ?? .null, "result": candidate.result.map { .int($0) } ?? .null,
                    "agrees": .bool(candidate.agreesWithAnswer),
                ]
                if let tokens = candidate.tokens {
                    fields["token_logprob_min"] = .double(tokens.minLogprob)
                    fields["hesitations"] = .int(tokens.hesitations)
                }
                return .object(fields)
            })
        }
        return fields
    }

    /// The structured answer within `room` bytes: what the rows and a long model-written
    /// statement repeated in `model_sql`, the rewrites and `replaced_sql` would take beyond it is
    /// cut, in this order: the statements of the rewrites and the replaced one (to 300
    /// characters each), `model_sql` (to 1,000), rows from the end (`truncated`, by `bytes`),
    /// and last the statement that ran and the answer, each ending in "…" where cut.
    static func bounded(_ structured: Value, to room: Int) -> Value {
        guard case .object(var object) = structured, AnswerBudget.size(of: structured) > room else { return structured }
        func fits() -> Bool { AnswerBudget.size(of: .object(object)) <= room }
        if case .array(let rewrites)? = object["rewrites"] {
            object["rewrites"] = .array(rewrites.map { rewrite in
                guard case .object(var fields) = rewrite else { return rewrite }
                for key in ["before", "after"] { fields[key] = fields[key]?.stringValue.map { .string(Echo.clipped($0, to: 300)) } }
                return .object(fields)
            })
        }
        object["replaced_sql"] = object["replaced_sql"]?.stringValue.map { .string(Echo.clipped($0, to: 300)) }
        if case .array(let candidates)? = object["candidates"] {
            object["candidates"] = .array(candidates.map { candidate in
                guard case .object(var fields) = candidate else { return candidate }
                fields["sql"] = fields["sql"]?.stringValue.map { .string(Echo.clipped($0, to: 300)) } ?? fields["sql"]
                return .object(fields)
            })
        }
        if fits() { return .object(object) }
        object["model_sql"] = object["model_sql"]?.stringValue.map { .string(Echo.clipped($0, to: 1_000)) }
        if case .array(var rows)? = object["rows"], !rows.isEmpty {
            while !fits(), !rows.isEmpty {
                rows.removeLast(max(1, rows.count / 8))
                object["rows"] = .array(rows)
                object["row_count"] = .int(rows.count)
                object["truncated"] = true
                object["truncated_by"] = "bytes"
            }
        }
        for (key, length) in [("sql", room / 4), ("answer", room / 8)] where !fits() {
            object[key] = object[key]?.stringValue.map { .string(Echo.clipped($0, to: max(80, length / 2))) }
        }
        if fits() { return .object(object) }
        // A small budget: what explains the answer shrinks to its headlines.
        if case .array(let rewrites)? = object["rewrites"] {
            object["rewrites"] = .array(rewrites.map { rewrite in
                guard case .object(var fields) = rewrite else { return rewrite }
                fields["before"] = "…"
                fields["after"] = "…"
                return .object(fields)
            })
        }
        for key in ["doubts", "looked_again_for"] {
            if case .array(let items)? = object[key] {
                object[key] = .array(items.prefix(3).map { .string(Echo.clipped($0.stringValue ?? "", to: 120)) })
            }
        }
        object["replaced_sql"] = nil
        object["candidates"] = nil
        object["confidence_evidence"] = nil
        if case .array(let reasons)? = object["confidence_reasons"] {
            object["confidence_reasons"] = .array(reasons.map { reason in
                guard case .object(var fields) = reason else { return reason }
                fields["message"] = fields["message"]?.stringValue.map { .string(Echo.clipped($0, to: 120)) }
                return .object(fields)
            })
        }
        for key in ["model_sql", "sql", "answer"] where !fits() {
            object[key] = object[key]?.stringValue.map { .string(Echo.clipped($0, to: 80)) }
        }
        return .object(object)
    }

    /// The confidence in words: low says plainly to check the answer, and why.
    static func confidenceText(_ confidence: AnswerConfidence) -> String {
        switch confidence.level {
        case .low:
            let against = confidence.reasons.filter { !$0.supportsAnswer }.map { "- " + $0.message }
            return "Confidence: low. This answer may be wrong: check it before relying on it."
                + (against.isEmpty ? "" : "\n" + against.joined(separator: "\n"))
        case .high:
            let support = confidence.reasons.filter(\.supportsAnswer).map(\.message)
            return "Confidence: high." + (support.isEmpty ? "" : " " + support.joined(separator: " "))
        }
    }

    static func text(_ response: ChatResponse, limits: ExecutionLimits, budget: AnswerBudget) -> String {
        var text = response.summary + "\n\n" + Self.confidenceText(response.confidence) + "\n\nSQL: " + response.sql
        if response.isRewritten {
            let rules = response.rewrites.map { "\($0.rule) (\($0.kind.rawValue))" }.joined(separator: ", ")
            text += "\n\nThis is not the statement the language model wrote: " + rules
                + " changed it (a repair mends a statement SQLite rejected; an equivalence changes nothing anyone could mean). "
                + "The model wrote: " + response.modelSQL
        }
        if !response.lookedAgainFor.isEmpty {
            text += "\n\nThe language model was asked to look at its statement again:\n"
                + response.lookedAgainFor.map { "- " + $0 }.joined(separator: "\n")
            if let replaced = response.replacedSQL {
                text += "\nIt replaced the statement it wrote first, which ran: " + replaced
            }
        }
        if !response.doubts.isEmpty {
            text += "\n\nCheck before trusting this answer:\n" + response.doubts.map { "- " + $0 }.joined(separator: "\n")
        }
        if let rows = response.queryResult {
            text += "\n\n" + ToolOutput.text(of: rows, limits: limits, budget: budget)
        }
        if let chart = response.chart {
            text += "\n\nSuggested chart: \(chart.kind.rawValue) of \(chart.y) by \(chart.x)."
        }
        return text
    }
}
