import GRDB

extension SQLExecutor {
    /// Reads the database file (its header, through a reading connection): a readiness probe.
    ///
    /// - Throws: ``SwiftDBAIError`` when the database cannot be read now.
    public func checkReadable() async throws(SwiftDBAIError) {
        _ = try await access { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
    }

    /// True when SQLite compiles `sql` as a statement that writes (against the whole schema,
    /// whatever the policy): a refused read whose statement would have written is a write
    /// attempt for the audit log. False when it does not compile or the schema cannot be read.
    package func compilesAsWrite(_ sql: String) async -> Bool {
        (try? await access { db in try self.schemaCache.current(db).classifier.compilesAsWrite(sql) }) ?? false
    }
}
