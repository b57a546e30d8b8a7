import Foundation
import GRDB
import Logging
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIPrimitives

/// Where `ask` conversations outlive the process (`--state-dir`): an SQLite file of their own,
/// `conversations.sqlite` in the state directory, never the user's database. Each conversation
/// the server started (its id is a UUID the server made) is kept with its database and its
/// turns (question and SQL); one idle longer than the time to live is forgotten.
///
/// It is also the process-wide registry of live conversations: every session continuing one id
/// gets the same engine and link, so its questions are answered one at a time whoever sends
/// them.
final class ConversationArchive: Sendable {
    /// The file (`DIR/conversations.sqlite`).
    let path: String
    /// How long an idle conversation is kept (`--conversation-ttl`).
    let timeToLive: Duration
    private let queue: DatabaseQueue
    private let logger: Logger
    /// Live conversations by id, held weakly: the sessions' stores keep them alive.
    private let live = Mutex<[String: WeakConversation]>([:])
    /// Saves so far: expired conversations are purged every 100.
    private let saves = Mutex(0)

    /// The name of the file in the state directory.
    static let fileName = "conversations.sqlite"

    /// Creates the directory when missing, opens (or creates) the file, proves it can be
    /// written, and forgets expired conversations.
    ///
    /// - Throws: ``DBAIServerConfigurationError/stateDirectory(_:reason:)`` when the directory
    ///   cannot be created or written, the file is not an SQLite database of ours, or it is one
    ///   of `databases` (the absolute paths of the databases served).
    init(_ settings: ConversationArchiveSettings, apartFrom databases: [String] = [], logger: Logger) throws(DBAIServerConfigurationError) {
        (path, queue) = try StateDirectoryFile.open(
            Self.fileName, in: settings.directory, keeping: "conversations", apartFrom: databases, schema: """
                CREATE TABLE IF NOT EXISTS conversation(
                    id TEXT PRIMARY KEY, database TEXT NOT NULL, updated_at REAL NOT NULL, turns TEXT NOT NULL);
                CREATE INDEX IF NOT EXISTS conversation_updated ON conversation(updated_at);
                CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
                INSERT OR REPLACE INTO meta(key, value) VALUES ('opened_at', datetime('now'));
                """)
        timeToLive = settings.timeToLive
        self.logger = logger
        purgeExpired()
    }


    // MARK: - Live conversations

    /// The live conversation with this id, if a session holds it.
    func live(_ id: String) -> LiveConversation? {
        live.withLock { $0[id]?.conversation }
    }

    /// Makes a conversation the one every session continuing `id` gets.
    func register(_ conversation: LiveConversation) {
        live.withLock { live in Self.insert(conversation, into: &live) }
    }

    /// The live conversation with this id, or else the one `make` returns (nil: none), made the
    /// live one — in one step, so two sessions restoring one id at once share it. `make` runs
    /// under the registry's lock: it must not read the disk.
    func liveOrRegister(_ id: String, make: () -> LiveConversation?) -> LiveConversation? {
        live.withLock { live in
            if let existing = live[id]?.conversation { return existing }
            guard let made = make() else { return nil }
            Self.insert(made, into: &live)
            return made
        }
    }

    private static func insert(_ conversation: LiveConversation, into live: inout [String: WeakConversation]) {
        if live.count > 256 { live = live.filter { $0.value.conversation != nil } }
        live[conversation.id] = WeakConversation(conversation: conversation)
    }

    // MARK: - Storage

    /// The database and turns of a conversation kept and not expired; nil otherwise.
    func record(of id: String) -> (database: String, turns: [ChatEngine.Turn])? {
        let oldest = Date().timeIntervalSince1970 - timeToLive.seconds
        do {
            return try queue.read { db in
                guard let row = try Row.fetchOne(
                    db, sql: "SELECT database, turns FROM conversation WHERE id = ? AND updated_at >= ?", arguments: [id, oldest])
                else { return nil }
                let turns = try JSONDecoder().decode([StoredTurn].self, from: Data((row["turns"] as String).utf8))
                return (row["database"], turns.map { ChatEngine.Turn(question: $0.question, sql: $0.sql) })
            }
        } catch {
            logger.warning("conversation \(id) could not be read from \(path): \(error)")
            return nil
        }
    }

    /// Keeps a conversation's turns (after each answer).
    func save(_ id: String, database: String, turns: [ChatEngine.Turn]) {
        do {
            let stored = try JSONEncoder().encode(turns.map { StoredTurn(question: $0.question, sql: $0.sql) })
            try queue.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO conversation(id, database, updated_at, turns) VALUES (?, ?, ?, ?)",
                    arguments: [id, database, Date().timeIntervalSince1970, String(decoding: stored, as: UTF8.self)])
            }
        } catch {
            logger.warning("conversation \(id) could not be saved in \(path): \(error)")
        }
        if saves.withLock({ count in
            count += 1
            return count % 100 == 0
        }) {
            purgeExpired()
        }
    }

    /// Forgets conversations idle longer than the time to live.
    func purgeExpired() {
        let oldest = Date().timeIntervalSince1970 - timeToLive.seconds
        do {
            try queue.write { db in try db.execute(sql: "DELETE FROM conversation WHERE updated_at < ?", arguments: [oldest]) }
        } catch {
            logger.warning("expired conversations could not be removed from \(path): \(error)")
        }
    }

    /// Closes the file.
    func close() {
        try? queue.close()
    }

    private struct StoredTurn: Codable {
        var question: String
        var sql: String
    }
}

/// Where `--state-dir` keeps conversations, and for how long.
public struct ConversationArchiveSettings: Sendable, Hashable {
    /// The state directory (`--state-dir`), created when missing.
    public var directory: String
    /// How long a conversation nobody continues is kept (`--conversation-ttl`, 7 days by default).
    public var timeToLive: Duration

    /// Settings for a state directory.
    public init(directory: String, timeToLive: Duration = .seconds(7 * 24 * 3600)) {
        self.directory = directory
        self.timeToLive = timeToLive
    }
}

/// One conversation in memory: its id, database, engine, and the link to the request it answers.
final class LiveConversation: Sendable {
    let id: String
    let database: String
    let engine: ChatEngine
    let link: ConversationLink
    /// The operations the engine's executor allows: what the OAuth caller it was made for could
    /// run (nil: no narrowing). Another question with other rights makes a new engine.
    let granted: Set<SQLOperation>?

    init(id: String, database: String, engine: ChatEngine, link: ConversationLink, granted: Set<SQLOperation>? = nil) {
        self.id = id
        self.database = database
        self.engine = engine
        self.link = link
        self.granted = granted
    }
}

/// A weak reference to a live conversation. `@unchecked Sendable`: it is only read and written
/// under the archive's lock, and the conversation it points to is itself `Sendable`.
private struct WeakConversation: @unchecked Sendable {
    weak var conversation: LiveConversation?
}
