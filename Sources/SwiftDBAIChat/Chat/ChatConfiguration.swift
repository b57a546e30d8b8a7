import SwiftDBAI

/// How a ``ChatEngine`` talks to its model.
public struct ChatConfiguration: Sendable, Hashable {
    /// How the model is asked to hand over its SQL.
    public enum SQLOutputMode: String, Sendable, Hashable, CaseIterable {
        /// Structured output when the model supports it, else a tool call, else text.
        case automatic
        /// A JSON object `{"sql": "…"}` constrained by a schema.
        case structured
        /// A call of the `run_sql` tool.
        case toolCall = "tool"
        /// Plain text; the SQL is extracted (fenced or bare; `<think>` blocks ignored).
        case text
    }

    /// When a read gets candidate statements (``candidates``).
    public enum CandidateSampling: String, Sendable, Hashable, CaseIterable {
        /// For every read.
        case always
        /// Only when the score without them lies in the band where, on the development sets, a
        /// vote changed enough levels to be worth its calls (with the tokens' log-probabilities
        /// a narrow band around the threshold; without them, nearly every answer): an answer the
        /// other evidence already settles costs no more model calls.
        case whenUnsure = "when-unsure"
    }

    /// How the answer's summary is written.
    public enum SummaryMode: String, Sendable, Hashable, CaseIterable {
        /// The model writes it from the result (falls back to ``deterministic`` on failure).
        case model
        /// A short summary computed from the result, without a model call.
        case deterministic
    }

    /// Earlier turns (question and SQL) sent with each question, for follow-ups.
    public var historyWindow: Int
    /// Extra attempts after SQL that fails to compile or run; the error is fed back each time.
    public var maxRetries: Int
    /// Sample rows per table in the prompt.
    public var sampleRowCount: Int
    /// Above this many tables and views, the schema is never sent whole: only the tables
    /// relevant to each question are (nil, the default: the whole schema whenever it fits the
    /// context).
    public var maxPromptTables: Int?
    /// The model's context window in tokens, which every request (the system message with the
    /// schema and examples, the question, and room for the answer) must fit. Nil, the default:
    /// what the model reports (``LanguageModel/contextWindow()``), else
    /// ``defaultContextTokens``. The schema is sent whole, with its descriptions and sample
    /// rows, whenever it fits; a schema too large for it is retrieved table by table.
    /// The model that weighs the evidence about an answer (tests give their own).
    package var confidenceModel: ConfidenceModel = .standard
    public var contextTokens: Int?
    /// How the model hands over its SQL.
    public var sqlOutput: SQLOutputMode
    /// How the summary is written.
    public var summary: SummaryMode
    /// Sampling options of the SQL request.
    public var sqlOptions: GenerationOptions
    /// Sampling options of the summary request.
    public var summaryOptions: GenerationOptions
    /// Rows of the result shown to the model for the summary.
    public var summaryRowCount: Int
    /// The lowest temperature of a retry after failed SQL (0 tends to repeat the same mistake).
    public var retryTemperature: Double
    /// Whether every `INSERT`, `UPDATE` and `DELETE` the model writes needs a confirmation (by the
    /// executor's ``SQLExecutionDelegate``, which is shown a preview) before it runs. On by
    /// default: a model can be steered by text planted in the data it reads.
    public var confirmsWrites: Bool
    /// The longest the first request with a system prompt may take, instead of the model's own
    /// timeout: a local model on a CPU reads a large schema prompt slowly, once, and then serves
    /// it from its prompt cache. Later requests keep the model's timeout.
    public var firstRequestTimeout: Duration
    /// How many statements answer a read, the one settled on included: above 1, the model writes
    /// more at ``candidateTemperature`` from the same prompt (``candidateSampling`` says when),
    /// each runs (reads only), and the result most of them return wins (ties go to the statement
    /// settled on; an empty result never beats rows). Whether they agree is the strongest sign of
    /// how sure to be of the answer (``AnswerConfidence``). Sampling stops as soon as no other
    /// result can win and the answer's confidence cannot change. Each candidate is one more model
    /// call: on a local model on a CPU a second or two (the prompt is cached; only the statement
    /// is generated).
    public var candidates: Int
    /// When a read gets candidate statements.
    public var candidateSampling: CandidateSampling
    /// The sampling temperature of the extra candidates.
    public var candidateTemperature: Double
    /// The kinds of rewrites applied to the model's SQL (all by default): without `.repair`, a
    /// failed statement goes back to the model at once; without `.equivalence`, the model's
    /// statement runs as written; without `.guess`, the model is never told what a guess sees.
    public var rewriteKinds: Set<SQLRewriteKind>
    /// Questions with the SQL that answers them, from someone who knows the database: all of
    /// them in the system message, after the schema, when they fit the context; else the ones
    /// most like each question are shown to the model with it.
    public var examples: [ChatExample]
    /// How many examples go with a question, at most, when they do not all fit the system
    /// message (the most like it; none that shares no telling word with it). Each is read by the
    /// model with every question: on a local model on a CPU about a second per example.
    public var examplesPerQuestion: Int

    /// The context assumed when neither ``contextTokens`` nor the model says one: that of the
    /// local model `Scripts/local-llm` serves, and the smallest of the hosted ones' by far.
    public static let defaultContextTokens = 8_192

    /// Creates a configuration with defaults tuned for small local models.
    public init(
        historyWindow: Int = 4, maxRetries: Int = 2, sampleRowCount: Int = 3, maxPromptTables: Int? = nil,
        sqlOutput: SQLOutputMode = .automatic, summary: SummaryMode = .model,
        sqlOptions: GenerationOptions = GenerationOptions(temperature: 0, maxTokens: 400),
        summaryOptions: GenerationOptions = GenerationOptions(temperature: 0, maxTokens: 80),
        summaryRowCount: Int = 5, retryTemperature: Double = 0.4, confirmsWrites: Bool = true,
        firstRequestTimeout: Duration = .seconds(300), candidates: Int = 3, candidateSampling: CandidateSampling = .whenUnsure,
        candidateTemperature: Double = 0.7,
        rewriteKinds: Set<SQLRewriteKind> = Set(SQLRewriteKind.allCases), examples: [ChatExample] = [],
        examplesPerQuestion: Int = 3, contextTokens: Int? = nil
    ) {
        self.rewriteKinds = rewriteKinds
        self.examples = examples
        self.examplesPerQuestion = max(0, examplesPerQuestion)
        self.candidates = max(1, candidates)
        self.candidateSampling = candidateSampling
        self.candidateTemperature = max(0, candidateTemperature)
        self.firstRequestTimeout = firstRequestTimeout > .zero ? firstRequestTimeout : .seconds(300)
        self.confirmsWrites = confirmsWrites
        self.retryTemperature = max(0, retryTemperature)
        self.historyWindow = max(0, historyWindow)
        self.maxRetries = max(0, maxRetries)
        self.sampleRowCount = max(0, sampleRowCount)
        self.maxPromptTables = maxPromptTables.map { max(1, $0) }
        self.contextTokens = contextTokens.map { max(1_024, $0) }
        self.sqlOutput = sqlOutput
        self.summary = summary
        self.sqlOptions = sqlOptions
        self.summaryOptions = summaryOptions
        self.summaryRowCount = max(1, summaryRowCount)
    }
}
