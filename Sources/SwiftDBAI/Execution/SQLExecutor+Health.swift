import GRDB

extension SQLExecutor {
    /// Reads the database file (its header, through a reading connection): a readiness probe.
    ///
    /// - Throws: ``SwiftDBAIError`` when the database cannot be read now.
    public func checkReadable() async throws(SwiftDBAIError) {
        _ = try await access { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
    }
}
