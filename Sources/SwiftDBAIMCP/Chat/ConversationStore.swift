import Foundation
import SwiftDBAI
import SwiftDBAIChat
import SwiftDBAIMCPKernel

/// The `ask` conversations of a session (or of the stateless requests), by id: each keeps its own
/// history window and stays on the database it started on. The oldest conversations are
/// forgotten beyond ``capacity``.
///
/// With an ``archive`` (`--state-dir`), the conversations the server started are kept there
/// after each answer: an id from before a restart (or from another session) continues, with the
/// same engine for every session that holds it.
///
/// A conversation an OAuth caller started is theirs (``Owner``): it is kept under their key, so
/// another caller's follow-up with its id finds nothing, and it runs with the rights of the
/// token of each question (an engine made under other scopes is made again from the turns).
actor ConversationStore {
    /// Whose conversations these are: an OAuth caller (issuer and subject) and the operations
    /// their token of this question grants; nil fields for no caller (stdio, the static token).
    struct Owner: Sendable, Hashable {
        /// A digest of the caller's issuer and subject; nil for none.
        var key: String?
        /// The operations the caller may run now; nil for no narrowing.
        var granted: Set<SQLOperation>?

        static let none = Owner()
    }

    let capacity: Int
    /// Only ids this store (or the archive) made continue a conversation (the store shared by
    /// stateless clients: an id a client chose could meet another client's).
    let requiresKnownIDs: Bool
    let archive: ConversationArchive?
    private var conversations: [String: LiveConversation] = [:]
    private var order: [String] = []

    init(capacity: Int = 64, requiresKnownIDs: Bool = false, archive: ConversationArchive? = nil) {
        self.capacity = capacity
        self.requiresKnownIDs = requiresKnownIDs
        self.archive = archive
    }

    /// The key a conversation is kept under: its id, after `oauth.` and its owner's digest for
    /// an OAuth caller; nil for an id without owner that names an owner's key (another caller's
    /// conversation is not reachable by spelling its key).
    static func key(_ id: String, _ owner: Owner) -> String? {
        if let digest = owner.key { return "\(ownedPrefix)\(digest).\(id)" }
        return id.hasPrefix(ownedPrefix) ? nil : id
    }

    private static let ownedPrefix = "oauth."

    /// The database of a conversation still remembered (or kept in the archive).
    func database(of id: String, owner: Owner = .none) -> String? {
        guard let key = Self.key(id, owner) else { return nil }
        if let known = conversations[key] ?? archive?.live(key) { return known.database }
        return archive?.record(of: key)?.database
    }

    /// The engine of a conversation and its link to the request it answers, made with `make`
    /// (given the turns to continue from) when the id is new (or nil: a new id).
    ///
    /// - Throws: ``ToolCallError`` when the conversation started on another database, or (when
    ///   ``requiresKnownIDs``) the id is not one this store or the archive made.
    func engine(
        for id: String?, database: String, owner: Owner = .none, make: (ConversationLink, [ChatEngine.Turn]) -> ChatEngine
    ) async throws(ToolCallError) -> (id: String, engine: ChatEngine, link: ConversationLink) {
        if let id, let key = Self.key(id, owner), var known = conversations[key] ?? restored(key, granted: owner.granted, make: make) {
            guard known.database == database else {
                throw ToolCallError(
                    "The conversation \(id) is about the database \(known.database), not \(database): ask the follow-up "
                        + "with database \(known.database), or start a new conversation (conversation_id null).",
                    code: .invalidArguments)
            }
            if known.granted != owner.granted {
                // Made under other rights (another token's scopes): made again, from its turns.
                let link = ConversationLink()
                let wasArchived = archive?.live(known.id) != nil
                let turns = await known.engine.turns
                known = LiveConversation(
                    id: known.id, database: known.database, engine: make(link, turns), link: link, granted: owner.granted)
                if wasArchived { archive?.register(known) }
            }
            keep(known)
            return (id, known.engine, known.link)
        }
        if let id, requiresKnownIDs || Self.key(id, owner) == nil {
            throw ToolCallError(
                "Unknown conversation_id \(Echo.clipped(id)): it expired, or was not made by this server. "
                    + "Ask without conversation_id to start a new conversation.",
                code: .invalidArguments)
        }
        let link = ConversationLink()
        let newID = id ?? UUID().uuidString.lowercased()
        let conversation = LiveConversation(
            id: Self.key(newID, owner) ?? newID, database: database, engine: make(link, []), link: link, granted: owner.granted)
        // Only ids the server made are kept beyond the session: one a client chose could meet another's.
        if id == nil { archive?.register(conversation) }
        keep(conversation)
        return (newID, conversation.engine, conversation.link)
    }

    /// Keeps the conversation's turns in the archive, after an answer.
    func answered(_ id: String, owner: Owner = .none) async {
        guard let archive, let key = Self.key(id, owner), let conversation = archive.live(key) else { return }
        archive.save(conversation.id, database: conversation.database, turns: await conversation.engine.turns)
    }

    /// A conversation another session holds, or one read back from the archive.
    private func restored(
        _ id: String, granted: Set<SQLOperation>?, make: (ConversationLink, [ChatEngine.Turn]) -> ChatEngine
    ) -> LiveConversation? {
        guard let archive else { return nil }
        if let live = archive.live(id) { return live }
        guard let record = archive.record(of: id) else { return nil }
        // Atomic across sessions: two restoring one id at once get one engine (the other one made
        // is dropped; making one has no side effect).
        return archive.liveOrRegister(id) {
            let link = ConversationLink()
            return LiveConversation(id: id, database: record.database, engine: make(link, record.turns), link: link, granted: granted)
        }
    }

    private func keep(_ conversation: LiveConversation) {
        if conversations[conversation.id] != nil { order.removeAll { $0 == conversation.id } }
        conversations[conversation.id] = conversation
        order.append(conversation.id)
        if order.count > capacity {
            conversations[order.removeFirst()] = nil
        }
    }
}
