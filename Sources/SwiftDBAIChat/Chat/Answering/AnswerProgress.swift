import SwiftDBAI

/// Where the answer to one question stands, as the ``ChatEngine`` asks its model, runs what it
/// writes and decides what to do next: which attempt it is on, the conversation it sends next,
/// whether a read that ran is being looked at again, the last failure, whether the question was
/// already asked afresh on its tables. Each transition is one method; the engine does the model
/// calls and the statements, and the confidence of the answer is read from the same state.
///
/// The steps, in order:
/// - **writing**: the model writes a statement (``nextAttempt()``); no SQL in its reply gets it
///   asked again (``wroteNoSQL(_:)``); a statement that fails is repaired by the pipeline when it
///   can be, else the question is asked afresh once with only its tables (``focus(on:)``), else
///   the error goes back to the model (``tell(_:)``);
/// - **looking again**: a read that ran but returned no rows, or looks wrong (its doubts), gets
///   one more look (``ran(_:)``); whatever goes wrong during that look, or a look that finds no
///   rows either, leaves the first read as the answer (``standingAnswer``);
/// - **answered** (``AfterRun/answer(_:)``), or every attempt used (``outcome()``).
struct AnswerProgress: Sendable {
    enum Stage: Sendable {
        /// The model writes a statement for the question.
        case writing
        /// A read ran but returned no rows or looks wrong; the model looks at it again.
        case lookingAgain(first: SettledStatement)
    }

    /// What follows a statement that ran.
    enum AfterRun: Sendable {
        /// The model looks again (the conversation says why).
        case lookAgain
        /// The answer.
        case answer(SettledStatement)
    }

    private(set) var stage: Stage = .writing
    /// The conversation the next request sends.
    private(set) var messages: [ChatMessage]
    /// How many of the first messages are the system message and the earlier turns.
    let historyCount: Int
    /// Model calls for SQL allowed, the first included.
    let maxAttempts: Int
    /// The attempt under way (0 before the first).
    private(set) var attempt = 0
    /// What the model was told when it was asked to look again.
    private(set) var lookedAgainFor: [String] = []
    /// The statement that ran first and that a second look replaced.
    private(set) var replacedSQL: String?
    /// The last statement that failed, and why.
    private(set) var lastFailure: (sql: String, error: SwiftDBAIError)?
    /// True once the question was asked afresh with only its tables.
    private(set) var isFocused = false
    /// True when the next request starts a conversation afresh (the model's own temperature);
    /// a retry in the same conversation samples warmer, or it tends to repeat its mistake.
    private(set) var startsAfresh = true
    /// Statements of the model that failed (did not compile or SQLite rejected them).
    private(set) var failedStatements = 0

    init(messages: [ChatMessage], historyCount: Int, maxAttempts: Int) {
        self.messages = messages
        self.historyCount = historyCount
        self.maxAttempts = max(1, maxAttempts)
    }

    /// True while a read that ran is looked at again.
    var isLookingAgain: Bool {
        if case .lookingAgain = stage { return true }
        return false
    }

    /// The read that stands whatever happens to the second look at it, if one is under way.
    var standingAnswer: SettledStatement? {
        if case .lookingAgain(let first) = stage { return first }
        return nil
    }

    /// Starts the next attempt and returns its number, or nil when every attempt is used.
    mutating func nextAttempt() -> Int? {
        guard attempt < maxAttempts else { return nil }
        attempt += 1
        return attempt
    }

    /// The temperature of the request about to be sent: `configured` when it starts afresh, at
    /// least `retry` when it continues a conversation that went wrong.
    mutating func temperature(configured: Double?, retry: Double) -> Double? {
        defer { startsAfresh = false }
        return startsAfresh ? configured : max(configured ?? 0, retry)
    }

    /// The model replied without SQL: it is asked for the statement alone.
    mutating func wroteNoSQL(_ reply: ChatMessage) {
        messages += [reply, .user(ChatPrompt.noSQLRetry)]
    }

    /// Whether a statement that just ran should be checked for doubts: a read written for the
    /// question (not on a second look) while an attempt is left for a second look.
    func checksDoubts(of settled: SettledStatement) -> Bool {
        guard case .writing = stage else { return false }
        return settled.isRead && attempt < maxAttempts
    }

    /// True when a second look replaced the first read and `sql` is not that first read (the
    /// second look's statement, or one that later took its place).
    func secondLookReplaced(with sql: String) -> Bool {
        replacedSQL.map { $0 != sql } ?? false
    }

    /// A statement ran. On a second look, the new read replaces the first unless it finds no rows;
    /// otherwise a read with no rows or with doubts (``SettledStatement/checkedDoubts``) gets a
    /// second look, and anything else is the answer.
    mutating func ran(_ settled: SettledStatement) -> AfterRun {
        switch stage {
        case .lookingAgain(let first):
            if settled.isEmptyRead { return .answer(first) }
            replacedSQL = first.sql
            return .answer(settled)
        case .writing:
            guard let doubts = settled.checkedDoubts, settled.isEmptyRead || !doubts.isEmpty else { return .answer(settled) }
            stage = .lookingAgain(first: settled)
            lookedAgainFor = doubts.isEmpty ? [ChatPrompt.noRows] : doubts
            let note = doubts.isEmpty ? ChatPrompt.emptyResult : ChatPrompt.doubtful(doubts)
            messages = settled.conversation + [ChatPrompt.reply(note, to: settled.conversation)]
            return .lookAgain
        }
    }

    /// A statement failed: the read under a second look, if any, is the answer; otherwise the
    /// failure is remembered (nil: repair it, ask afresh or tell the model).
    mutating func failed(sql: String, error: SwiftDBAIError) -> SettledStatement? {
        if let standingAnswer { return standingAnswer }
        failedStatements += 1
        lastFailure = (sql, error)
        return nil
    }

    /// True when the question has not been asked afresh on its tables yet.
    var canFocus: Bool { !isFocused && !isLookingAgain }

    /// Asks the question afresh with `question` (its tables and hints): the earlier turns stay, the
    /// failed attempts go, and the request starts afresh. Once per question.
    mutating func focus(on question: String) {
        guard canFocus else { return }
        isFocused = true
        startsAfresh = true
        messages = Array(messages.prefix(historyCount)) + [.user(question)]
    }

    /// Tells the model why its statement failed (`feedback`: its answer and the error).
    mutating func tell(_ feedback: [ChatMessage]) {
        messages += feedback
    }

    /// The answer once every attempt is used: the read under a second look, or the last failure,
    /// or no SQL at all.
    func outcome() -> Result<SettledStatement, ChatError> {
        if let standingAnswer { return .success(standingAnswer) }
        if let lastFailure { return .failure(.failed(sql: lastFailure.sql, error: lastFailure.error, attempts: maxAttempts)) }
        return .failure(.noSQL(attempts: maxAttempts))
    }
}
