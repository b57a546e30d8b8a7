import Foundation
import SwiftDBAI
import SwiftDBAIChat

/// The `ask` conversations of a server, by id: each keeps its own history window and stays on
/// the database it started on. The oldest conversations are forgotten beyond ``capacity``.
actor ConversationStore {
    let capacity: Int
    /// Only ids this store made continue a conversation (the store shared by stateless
    /// clients: an id a client chose could meet another client's).
    let requiresKnownIDs: Bool
    private var conversations: [String: (database: String, engine: ChatEngine, link: ConversationLink)] = [:]
    private var order: [String] = []

    init(capacity: Int = 64, requiresKnownIDs: Bool = false) {
        self.capacity = capacity
        self.requiresKnownIDs = requiresKnownIDs
    }

    /// The database of a conversation still remembered.
    func database(of id: String) -> String? {
        conversations[id]?.database
    }

    /// The engine of a conversation and its link to the request it answers, made with `make`
    /// when the id is new (or nil: a new id).
    ///
    /// - Throws: ``ToolCallError`` when the conversation started on another database, or (when
    ///   ``requiresKnownIDs``) the id is not one this store made.
    func engine(
        for id: String?, database: String, make: (ConversationLink) -> ChatEngine
    ) throws(ToolCallError) -> (id: String, engine: ChatEngine, link: ConversationLink) {
        if requiresKnownIDs, let id, conversations[id] == nil {
            throw ToolCallError(
                "Unknown conversation_id \(Echo.clipped(id)): it expired, or was not made by this server process. "
                    + "Ask without conversation_id to start a new conversation.",
                code: .invalidArguments)
        }
        let key = id ?? UUID().uuidString.lowercased()
        if let known = conversations[key] {
            guard known.database == database else {
                throw ToolCallError(
                    "The conversation \(key) is about the database \(known.database), not \(database): ask the follow-up "
                        + "with database \(known.database), or start a new conversation (conversation_id null).",
                    code: .invalidArguments)
            }
            order.removeAll { $0 == key }
            order.append(key)
            return (key, known.engine, known.link)
        }
        let link = ConversationLink()
        let engine = make(link)
        conversations[key] = (database, engine, link)
        order.append(key)
        if order.count > capacity {
            conversations[order.removeFirst()] = nil
        }
        return (key, engine, link)
    }
}
