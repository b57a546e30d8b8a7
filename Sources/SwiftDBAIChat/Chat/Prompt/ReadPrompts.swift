import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// The system prompts a model has answered, remembered so that only the first request with a
/// prompt gets the longer ``ChatConfiguration/firstRequestTimeout``: a local model reads a prompt
/// once and keeps it in its cache. Share one between the engines of one model.
///
/// Only a hash of each prompt is kept, the most recent few.
public final class ReadPrompts: Sendable {
    private let hashes = Mutex<[Int]>([])
    private let capacity: Int

    /// Creates an empty record that remembers at most `capacity` prompts.
    public init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
    }

    /// Whether the model has answered a request with this system prompt.
    public func contains(_ prompt: String) -> Bool {
        let hash = prompt.hashValue
        return hashes.withLock { $0.contains(hash) }
    }

    /// Records that the model answered a request with this system prompt.
    public func insert(_ prompt: String) {
        let hash = prompt.hashValue
        hashes.withLock { hashes in
            hashes.removeAll { $0 == hash }
            hashes.append(hash)
            if hashes.count > capacity { hashes.removeFirst(hashes.count - capacity) }
        }
    }
}
