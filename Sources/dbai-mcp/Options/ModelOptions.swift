import ArgumentParser
import SwiftDBAIAsyncHTTPClient
import SwiftDBAIChat

/// The language model that answers `ask`, and how `ask` uses it.
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The model that answers `ask`: openai:MODEL, anthropic:MODEL, gemini:MODEL, ollama:MODEL or openai-compatible:MODEL. API keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). Without it, `ask` uses the client's model when the client supports sampling.",
        valueName: "provider:model"))
    var llm: String?

    @Option(name: .customLong("llm-base-url"), help: ArgumentHelp(
        "The API base URL of the model (required for openai-compatible, e.g. http://127.0.0.1:8088/v1).", valueName: "url"))
    var llmBaseURL: String?

    @Option(name: .customLong("llm-timeout"), help: ArgumentHelp(
        "How long one model request may take, in seconds (a local model on a CPU may need more than the default for a large schema).",
        valueName: "seconds"))
    var llmTimeoutSeconds: Int = 120

    @Option(name: .customLong("llm-first-timeout"), help: ArgumentHelp(
        "How long the first request to the --llm model with a schema prompt may take, in seconds: a local model on a CPU reads the prompt then, once (at least --llm-timeout).",
        valueName: "seconds"))
    var llmFirstTimeoutSeconds: Int = Int(ChatConfiguration().firstRequestTimeout.components.seconds)

    @Flag(name: .customLong("llm-warm-up"), help: "Have the --llm model read the schema prompt at start-up, so the first `ask` does not wait for it (one short request; for a local model).")
    var llmWarmUp = false

    @Option(name: .customLong("llm-sample-rows"), help: ArgumentHelp(
        "Sample rows per table in the prompt of `ask` (0 for none). They are sent to the model's provider.",
        valueName: "n"))
    var llmSampleRows: Int = ChatConfiguration().sampleRowCount

    @Option(name: .customLong("llm-candidates"), help: ArgumentHelp(
        "The most statements written for a question of `ask`, 1 to 5: above 1, the model writes more at a higher temperature, each runs (reads only), the result most of them return wins, and whether they agree says how sure the answer is. Each is one more model call.",
        valueName: "n"))
    var llmCandidates: Int = ChatConfiguration().candidates

    @Option(name: .customLong("llm-candidate-sampling"), help: ArgumentHelp(
        "When `ask` writes the other candidates: when-unsure (only when the rest of the evidence leaves the answer's confidence open) or always.",
        valueName: "when"))
    var llmCandidateSampling: ChatConfiguration.CandidateSampling = ChatConfiguration().candidateSampling

    @Option(name: .customLong("llm-context"), help: ArgumentHelp(
        "The context window of the model that answers `ask`, in tokens: every prompt fits it, the whole schema whenever it can (default: what the --llm server reports, else \(ChatConfiguration.defaultContextTokens); at least 2048).",
        valueName: "tokens"))
    var llmContext: Int?

    @Option(name: .customLong("llm-rewrites"), help: ArgumentHelp(
        "The kinds of rewrites of the model's SQL for `ask`, comma-separated: repair (mend a statement SQLite rejected), equivalence (change nothing anyone could mean), guess (a reading of the question the statement may miss, told to the model, never applied); none for the model's SQL as written.",
        valueName: "kinds"))
    var llmRewrites: RewriteKindList = RewriteKindList(kinds: ChatConfiguration().rewriteKinds)

    @Option(name: .customLong("llm-examples"), help: ArgumentHelp(
        "How many of the metadata's example questions (the most like each question) go with a question of `ask` when they do not all fit its system prompt, 0 to 8.",
        valueName: "n"))
    var llmExamples: Int = ChatConfiguration().examplesPerQuestion

    @Option(name: .customLong("llm-sql-output"), help: ArgumentHelp(
        "How the model hands over SQL: automatic (text for openai-compatible and ollama, else structured), structured, tool or text.", valueName: "mode"))
    var llmSQLOutput: ChatConfiguration.SQLOutputMode = .automatic

    @Option(name: .customLong("llm-summary"), help: ArgumentHelp(
        "Who writes the answer's summary: model or deterministic (no second model call).", valueName: "mode"))
    var llmSummary: ChatConfiguration.SummaryMode = .model

    func validate() throws {
        if let llm {
            do {
                _ = try LanguageModelSpecifier(parsing: llm, baseURL: llmBaseURL)
            } catch {
                throw ValidationError(error.description)
            }
        } else if llmBaseURL != nil {
            throw ValidationError("--llm-base-url needs --llm (for example --llm openai-compatible:MODEL).")
        }
        guard llmTimeoutSeconds >= 1 else { throw ValidationError("--llm-timeout must be at least 1 second.") }
        guard llmFirstTimeoutSeconds >= 1 else { throw ValidationError("--llm-first-timeout must be at least 1 second.") }
        if llmWarmUp, llm == nil { throw ValidationError("--llm-warm-up needs --llm.") }
        guard (1...5).contains(llmCandidates) else { throw ValidationError("--llm-candidates must be 1 to 5.") }
        if let llmContext, llmContext < 2_048 { throw ValidationError("--llm-context must be at least 2048 tokens.") }
        guard llmSampleRows >= 0 else { throw ValidationError("--llm-sample-rows must be 0 or more.") }
        guard (0...8).contains(llmExamples) else { throw ValidationError("--llm-examples must be 0 to 8.") }
    }

    /// How long one model request (and one sampling request to the client) may take.
    var requestTimeout: Duration { .seconds(llmTimeoutSeconds) }

    /// The `--llm` model, with the way of handing over SQL its provider prefers; nil without
    /// `--llm`.
    func languageModel(
        environment: [String: String]
    ) throws -> (model: any LanguageModel, preferredSQLOutput: ChatConfiguration.SQLOutputMode)? {
        guard let llm else { return nil }
        let specifier = try LanguageModelSpecifier(parsing: llm, baseURL: llmBaseURL)
        let model = try specifier.makeModel(environment: environment, transport: .asyncHTTPClient, timeout: requestTimeout)
        return (model, specifier.preferredSQLOutput)
    }

    /// How `ask` answers; `preferredSQLOutput` stands for `--llm-sql-output automatic`.
    func chatConfiguration(preferredSQLOutput: ChatConfiguration.SQLOutputMode) -> ChatConfiguration {
        var chat = ChatConfiguration()
        chat.sqlOutput = llmSQLOutput == .automatic ? preferredSQLOutput : llmSQLOutput
        chat.summary = llmSummary
        chat.sampleRowCount = llmSampleRows
        chat.candidates = llmCandidates
        chat.candidateSampling = llmCandidateSampling
        chat.contextTokens = llmContext
        chat.rewriteKinds = llmRewrites.kinds
        chat.examplesPerQuestion = llmExamples
        chat.firstRequestTimeout = .seconds(max(llmFirstTimeoutSeconds, llmTimeoutSeconds))
        return chat
    }
}

extension ChatConfiguration.SQLOutputMode: ExpressibleByArgument {}
extension ChatConfiguration.SummaryMode: ExpressibleByArgument {}
extension ChatConfiguration.CandidateSampling: ExpressibleByArgument {}
