import Foundation
import Logging
import MCP
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP
import SwiftDBAIChat

@Suite("The conversations stateless clients share")
struct SharedConversationTests {
    @Test("only ids the store made continue a conversation; a chosen id is refused")
    func knownIDsOnly() async throws {
        let store = ConversationStore(capacity: 4, requiresKnownIDs: true)
        let executor = try SQLExecutor(path: ServerFixture.examplePath, policy: SafetyPolicy(allowlist: .readOnly))
        let make: @Sendable (ConversationLink, [ChatEngine.Turn]) -> ChatEngine = { _, _ in
            ChatEngine(executor: executor, model: UnreachableModel())
        }
        let started = try await store.engine(for: nil, database: "main", make: make)
        let continued = try await store.engine(for: started.id, database: "main", make: make)
        #expect(continued.id == started.id)
        await #expect(throws: ToolCallError.self) { _ = try await store.engine(for: "main", database: "main", make: make) }
    }

    @Test("with an archive, sessions share one engine per id, and a restart continues from the turns kept")
    func archived() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let executor = try SQLExecutor(path: ServerFixture.examplePath, policy: SafetyPolicy(allowlist: .readOnly))
        let make: @Sendable (ConversationLink, [ChatEngine.Turn]) -> ChatEngine = { _, history in
            ChatEngine(executor: executor, model: UnreachableModel(), history: history)
        }
        let archive = try ConversationArchive(ConversationArchiveSettings(directory: directory), logger: Logger(label: "test"))
        let first = ConversationStore(archive: archive)
        let second = ConversationStore(archive: archive)
        let started = try await first.engine(for: nil, database: "main", make: make)
        let elsewhere = try await second.engine(for: started.id, database: "main", make: make)
        #expect(elsewhere.engine === started.engine && elsewhere.link === started.link)
        // A chosen id stays in its session.
        let chosen = try await first.engine(for: "mine", database: "main", make: make)
        #expect(try await second.engine(for: "mine", database: "main", make: make).engine !== chosen.engine)
        archive.save(started.id, database: "main", turns: [ChatEngine.Turn(question: "How many?", sql: "SELECT 1")])
        archive.close()

        let reopened = try ConversationArchive(ConversationArchiveSettings(directory: directory), logger: Logger(label: "test"))
        let restored = try await ConversationStore(archive: reopened).engine(for: started.id, database: "main", make: make)
        #expect(await restored.engine.turns == [ChatEngine.Turn(question: "How many?", sql: "SELECT 1")])
        await #expect(throws: ToolCallError.self) {
            _ = try await ConversationStore(archive: reopened).engine(for: started.id, database: "other", make: make)
        }
        #expect(reopened.record(of: "mine") == nil)

        // Sessions restoring one id at the same moment share what the first one made.
        let made = Mutex(0)
        let conversations = await withTaskGroup(of: LiveConversation?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    reopened.liveOrRegister("raced") {
                        made.withLock { $0 += 1 }
                        let link = ConversationLink()
                        return LiveConversation(id: "raced", database: "main", engine: make(link, []), link: link)
                    }
                }
            }
            return await group.reduce(into: [LiveConversation?]()) { $0.append($1) }
        }
        #expect(made.withLock { $0 } == 1)
        #expect(Set(conversations.compactMap { $0.map(ObjectIdentifier.init) }).count == 1)
        reopened.close()
    }
}

private struct UnreachableModel: LanguageModel {
    let name = "unreachable"
    let capabilities = LanguageModelCapabilities.textOnly
    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        throw .unreachable(provider: name, reason: "test")
    }
}
