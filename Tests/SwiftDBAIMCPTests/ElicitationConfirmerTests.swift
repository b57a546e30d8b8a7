import Foundation
import MCP
import SwiftDBAIPrimitives
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

/// The one confirmation by elicitation, as the write tools use it (``WriteConfirmationFlow``)
/// and as `ask` does (the executor's delegate).
@Suite("Confirmation through elicitation")
struct ElicitationConfirmerTests {
    /// Records the questions put to the user and answers them from a script.
    final class ScriptedUser: Sendable {
        private let state: Mutex<(questions: [String], answers: [Result<ElicitationConfirmer.Answer, any Error>])>

        init(_ answers: [Result<ElicitationConfirmer.Answer, any Error>]) {
            state = Mutex((questions: [], answers: answers))
        }

        var questions: [String] { state.withLock { $0.questions } }

        var elicit: ElicitationConfirmer.Elicit {
            { message in
                let answer = self.state.withLock { state in
                    state.questions.append(message)
                    return state.answers.isEmpty ? .success(.declined) : state.answers.removeFirst()
                }
                return try answer.get()
            }
        }
    }

    struct ClientGone: Error, CustomStringConvertible {
        var description: String { "the client went away" }
    }

    /// Playlist 2 ("Movies") holds no track.
    static let deleteMovies = [BoundStatement(sql: "DELETE FROM Playlist WHERE PlaylistId = ?", arguments: [2])]

    func flow(_ fixture: ServerFixture, _ user: ScriptedUser) throws -> WriteConfirmationFlow {
        let executor = try SQLExecutor(path: fixture.path, policy: SafetyPolicy(allowlist: .unrestricted))
        return WriteConfirmationFlow(
            executor: executor, tokens: ConfirmationTokenStore(), confirmsDestructiveWrites: true, elicit: user.elicit)
    }

    @Test("a confirmed delete runs after one question that shows the statement, the count and the rows")
    func confirmed() async throws {
        let fixture = try ServerFixture()
        let user = ScriptedUser([.success(.confirmed)])
        let before = try fixture.count("Playlist")
        let output = try await flow(fixture, user).run(Self.deleteMovies, operation: .delete, tool: "delete", token: nil)
        #expect(output.structured.objectValue?["rows_affected"] == 1)
        #expect(try fixture.count("Playlist") == before - 1)
        #expect(user.questions.count == 1)
        let question = try #require(user.questions.first)
        #expect(question.contains("Confirm this DELETE? It would affect 1 row."))
        #expect(question.contains("DELETE FROM Playlist WHERE PlaylistId = ?  with [2]"))
        #expect(question.contains("Movies"), "the question shows the row")
    }

    @Test("a declined delete changes nothing and says the user did not confirm it")
    func declined() async throws {
        let fixture = try ServerFixture()
        let user = ScriptedUser([.success(.declined)])
        let before = try fixture.count("Playlist")
        let error = try await #require(throws: ToolCallError.self) {
            _ = try await flow(fixture, user).run(Self.deleteMovies, operation: .delete, tool: "delete", token: nil)
        }
        #expect(error.code == .confirmationDeclined)
        #expect(error.message == "The user did not confirm the DELETE; nothing was changed.")
        #expect(try fixture.count("Playlist") == before)
    }

    @Test("a confirmation request that fails changes nothing and says why, unlike a decline")
    func failedRequest() async throws {
        let fixture = try ServerFixture()
        let user = ScriptedUser([.failure(ClientGone())])
        let before = try fixture.count("Playlist")
        let error = try await #require(throws: ToolCallError.self) {
            _ = try await flow(fixture, user).run(Self.deleteMovies, operation: .delete, tool: "delete", token: nil)
        }
        #expect(error.message == "The confirmation request to the client failed (the client went away); nothing was changed.")
        #expect(try fixture.count("Playlist") == before)
    }

    @Test("the writes of ask are asked the same question, after the preamble")
    func preamble() async throws {
        let fixture = try ServerFixture()
        let user = ScriptedUser([.success(.confirmed)])
        let confirmer = ElicitationConfirmer(elicit: user.elicit, preamble: "A language model wrote this change.")
        let executor = try SQLExecutor(path: fixture.path, policy: SafetyPolicy(allowlist: .unrestricted), delegate: confirmer)
        let result = try await executor.execute(Self.deleteMovies)
        #expect(result.rowsAffected == 1)
        let question = try #require(user.questions.first)
        #expect(question.hasPrefix("A language model wrote this change.\n\nConfirm this DELETE? It would affect 1 row."))
        #expect(confirmer.lastFailure == nil)
    }

    @Test("a cancelled confirmation request is not reported as a failure of the client")
    func cancelled() async throws {
        let fixture = try ServerFixture()
        let user = ScriptedUser([.failure(CancellationError())])
        let confirmer = ElicitationConfirmer(elicit: user.elicit)
        let executor = try SQLExecutor(path: fixture.path, policy: SafetyPolicy(allowlist: .unrestricted), delegate: confirmer)
        let error = await #expect(throws: SwiftDBAIError.self) { _ = try await executor.execute(Self.deleteMovies) }
        #expect(error?.code == .confirmationDeclined)
        #expect(confirmer.lastFailure == nil)
    }
}
