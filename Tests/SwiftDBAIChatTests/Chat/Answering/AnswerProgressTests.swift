import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat

/// Each transition of the state an answer is written in, one at a time, without a model or a
/// database.
@Suite("AnswerProgress: the steps of an answer")
struct AnswerProgressTests {
    static let asked: [ChatMessage] = [.system("rules and schema"), .user("Question: earlier"), .assistant("SELECT 0"), .user("Question: now")]

    func progress(attempts: Int = 3) -> AnswerProgress {
        AnswerProgress(messages: Self.asked, historyCount: 3, maxAttempts: attempts)
    }

    static func read(_ sql: String, rows: [[SQLValue]], doubts: [String]? = nil, attempt: Int = 1) -> SettledStatement {
        let result = QueryResult(columns: [QueryColumn(name: "n")], rows: rows, sql: sql)
        var settled = SettledStatement(
            sql: sql, modelSQL: sql, rewrites: [], outcome: .rows(result), conversation: asked + [.assistant(sql)], attempts: attempt)
        settled.checkedDoubts = doubts
        return settled
    }

    static let failure = SwiftDBAIError.rejected(SQLRejection(.invalidSQL, "no such column: nope"))

    @Test("attempts are numbered from 1 and end at the most allowed")
    func attempts() {
        var progress = progress(attempts: 2)
        #expect(progress.attempt == 0)
        #expect(progress.nextAttempt() == 1 && progress.nextAttempt() == 2 && progress.nextAttempt() == nil)
        #expect(progress.attempt == 2)
    }

    @Test("the first request keeps the configured temperature; one that continues a conversation is warmer; a fresh start is not")
    func temperatures() {
        var progress = progress()
        #expect(progress.temperature(configured: 0, retry: 0.4) == 0)
        #expect(progress.temperature(configured: 0, retry: 0.4) == 0.4)
        #expect(progress.temperature(configured: 0.7, retry: 0.4) == 0.7)
        progress.focus(on: "Use only these tables: …")
        #expect(progress.temperature(configured: 0, retry: 0.4) == 0)
        #expect(progress.temperature(configured: nil, retry: 0.4) == 0.4)
    }

    @Test("a reply without SQL is kept and answered with the request for the statement alone")
    func noSQL() {
        var progress = progress()
        progress.wroteNoSQL(.assistant("I think you want the albums."))
        #expect(progress.messages == Self.asked + [.assistant("I think you want the albums."), .user(ChatPrompt.noSQLRetry)])
    }

    @Test("a read with rows and nothing wrong is the answer")
    func plainAnswer() {
        var progress = progress()
        _ = progress.nextAttempt()
        let settled = Self.read("SELECT 1", rows: [[.integer(1)]], doubts: [])
        #expect(progress.checksDoubts(of: settled))
        guard case .answer(let answer) = progress.ran(settled) else { Issue.record("expected the answer"); return }
        #expect(answer.sql == "SELECT 1" && progress.lookedAgainFor.isEmpty && progress.replacedSQL == nil)
    }

    @Test("doubts are looked for only on a read written for the question, with an attempt left for a second look")
    func whenDoubtsAreChecked() {
        var progress = progress(attempts: 2)
        let read = Self.read("SELECT 1", rows: [[.integer(1)]])
        var write = read
        write.outcome = .changes(MutationResult(operation: .update, rowsAffected: 1))
        _ = progress.nextAttempt()
        #expect(progress.checksDoubts(of: read) && !progress.checksDoubts(of: write))
        _ = progress.nextAttempt()
        #expect(!progress.checksDoubts(of: read), "no attempt left for a second look")
        // A read whose doubts were not looked for is the answer, empty or not.
        guard case .answer = progress.ran(Self.read("SELECT 1 WHERE 0", rows: [])) else { Issue.record("expected the answer"); return }
    }

    @Test("a read that returns no rows gets a second look: the conversation says so")
    func emptyReadLooksAgain() {
        var progress = progress()
        _ = progress.nextAttempt()
        let empty = Self.read("SELECT n FROM t WHERE 0", rows: [], doubts: [])
        guard case .lookAgain = progress.ran(empty) else { Issue.record("expected a second look"); return }
        #expect(progress.isLookingAgain && progress.standingAnswer?.sql == empty.sql)
        #expect(progress.lookedAgainFor == [ChatPrompt.noRows])
        #expect(progress.messages == empty.conversation + [.user(ChatPrompt.emptyResult)])
        #expect(!progress.canFocus && !progress.checksDoubts(of: empty))
    }

    @Test("a read with doubts gets a second look that names them")
    func doubtsLookAgain() {
        var progress = progress()
        _ = progress.nextAttempt()
        let doubtful = Self.read("SELECT n FROM t WHERE s = 'x'", rows: [[.integer(3)]], doubts: ["'x' is not a value of t.s."])
        guard case .lookAgain = progress.ran(doubtful) else { Issue.record("expected a second look"); return }
        #expect(progress.lookedAgainFor == ["'x' is not a value of t.s."])
        #expect(progress.messages.last == .user(ChatPrompt.doubtful(["'x' is not a value of t.s."])))
    }

    @Test("a second look that finds rows replaces the first read and says which; one that finds none leaves it")
    func secondLookOutcomes() {
        var replacing = progress()
        _ = replacing.nextAttempt()
        let first = Self.read("SELECT 0 WHERE 0", rows: [], doubts: [])
        _ = replacing.ran(first)
        _ = replacing.nextAttempt()
        guard case .answer(let second) = replacing.ran(Self.read("SELECT 2", rows: [[.integer(2)]], attempt: 2)) else {
            Issue.record("expected the answer"); return
        }
        #expect(second.sql == "SELECT 2" && replacing.replacedSQL == first.sql)
        #expect(replacing.secondLookReplaced(with: "SELECT 2") && !replacing.secondLookReplaced(with: first.sql))

        var keeping = progress()
        _ = keeping.nextAttempt()
        _ = keeping.ran(first)
        _ = keeping.nextAttempt()
        guard case .answer(let kept) = keeping.ran(Self.read("SELECT 3 WHERE 0", rows: [], attempt: 2)) else {
            Issue.record("expected the answer"); return
        }
        #expect(kept.sql == first.sql && keeping.replacedSQL == nil)
        #expect(!keeping.secondLookReplaced(with: kept.sql) && !keeping.secondLookReplaced(with: "SELECT 3 WHERE 0"))
    }

    @Test("a failure is remembered for the retry; during a second look the first read stands instead")
    func failures() {
        var progress = progress()
        _ = progress.nextAttempt()
        #expect(progress.failed(sql: "SELECT nope", error: Self.failure) == nil)
        #expect(progress.failedStatements == 1 && progress.lastFailure?.sql == "SELECT nope")
        progress.tell([.assistant("SELECT nope"), .user("That statement failed.")])
        #expect(progress.messages.suffix(2) == [.assistant("SELECT nope"), .user("That statement failed.")])

        _ = progress.nextAttempt()
        let first = Self.read("SELECT 0 WHERE 0", rows: [], doubts: [])
        _ = progress.ran(first)
        #expect(progress.failed(sql: "SELECT worse", error: Self.failure)?.sql == first.sql)
        #expect(progress.failedStatements == 1, "a failed second look is not counted as a failed statement")
    }

    @Test("the question is asked afresh on its tables once: earlier turns stay, failed attempts go")
    func focus() {
        var progress = progress()
        _ = progress.nextAttempt()
        _ = progress.failed(sql: "SELECT nope", error: Self.failure)
        progress.tell([.assistant("SELECT nope"), .user("That statement failed.")])
        #expect(progress.canFocus)
        progress.focus(on: "Use only these tables: t\n\nQuestion: now")
        #expect(progress.isFocused && !progress.canFocus && progress.startsAfresh)
        #expect(progress.messages == Array(Self.asked.prefix(3)) + [.user("Use only these tables: t\n\nQuestion: now")])
        progress.focus(on: "again")
        #expect(progress.messages.last == .user("Use only these tables: t\n\nQuestion: now"))
    }

    @Test("when every attempt is used: the read under a second look, else the last failure, else no SQL")
    func outcomes() {
        var looking = progress(attempts: 1)
        _ = looking.nextAttempt()
        let first = Self.read("SELECT 0 WHERE 0", rows: [], doubts: [])
        looking = AnswerProgress(messages: Self.asked, historyCount: 3, maxAttempts: 2)
        _ = looking.nextAttempt()
        _ = looking.ran(first)
        if case .success(let standing) = looking.outcome() { #expect(standing.sql == first.sql) } else { Issue.record("expected the first read") }

        var failing = progress(attempts: 1)
        _ = failing.nextAttempt()
        _ = failing.failed(sql: "SELECT nope", error: Self.failure)
        #expect(failing.outcome().failure == .failed(sql: "SELECT nope", error: Self.failure, attempts: 1))

        var silent = progress(attempts: 2)
        silent.wroteNoSQL(.assistant("?"))
        #expect(silent.outcome().failure == .noSQL(attempts: 2))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
