import Foundation
@testable import SwiftDBAIChat

/// A model that writes the statement it was last given, every time it is asked.
final class FixedSQLModel: LanguageModel, @unchecked Sendable {
    let name = "fixed"
    let capabilities = LanguageModelCapabilities.textOnly
    private let lock = NSLock()
    private var sql = ""

    func answer(with sql: String) {
        lock.withLock { self.sql = sql }
    }

    func respond(to request: LanguageModelRequest) async throws(LanguageModelError) -> LanguageModelResponse {
        LanguageModelResponse(text: lock.withLock { sql })
    }
}
