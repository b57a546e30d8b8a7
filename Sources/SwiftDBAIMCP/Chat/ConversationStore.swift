import Foundation
import SwiftDBAI

/// The `ask` conversations of a server, by id: each keeps its own history window. The oldest
/// conversations are forgotten beyond ``capacity``.
actor ConversationStore {
    let capacity: Int
    private var engines: [String: ChatEngine] = [:]
    private var order: [String] = []

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The engine of a conversation, made with `make` when the id is new (or nil: a new id).
    func engine(for id: String?, make: () -> ChatEngine) -> (id: String, engine: ChatEngine) {
        let key = id ?? UUID().uuidString.lowercased()
        if let engine = engines[key] {
            order.removeAll { $0 == key }
            order.append(key)
            return (key, engine)
        }
        let engine = make()
        engines[key] = engine
        order.append(key)
        if order.count > capacity {
            engines[order.removeFirst()] = nil
        }
        return (key, engine)
    }
}
