import Foundation
import SwiftDBAI
import SwiftDBAIChat

/// The `ask` conversations of a server, by id: each keeps its own history window and stays on
/// the database it started on. The oldest conversations are forgotten beyond ``capacity``.
actor ConversationStore {
    let capacity: Int
    private var conversations: [String: (database: String, engine: ChatEngine)] = [:]
    private var order: [String] = []

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The database of a conversation still remembered.
    func database(of id: String) -> String? {
        conversations[id]?.database
    }

    /// The engine of a conversation, made with `make` when the id is new (or nil: a new id).
    ///
    /// - Throws: ``ToolCallError`` when the conversation started on another database.
    func engine(for id: String?, database: String, make: () -> ChatEngine) throws(ToolCallError) -> (id: String, engine: ChatEngine) {
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
            return (key, known.engine)
        }
        let engine = make()
        conversations[key] = (database, engine)
        order.append(key)
        if order.count > capacity {
            conversations[order.removeFirst()] = nil
        }
        return (key, engine)
    }
}
