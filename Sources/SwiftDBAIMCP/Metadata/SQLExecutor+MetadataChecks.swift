import SwiftDBAI

extension SQLExecutor {
    /// A statement of the metadata file (a canned query, an example) compiled and classified now,
    /// as the server starts.
    ///
    /// - Throws: `fail`'s error, saying the SQL does not compile (SQLite's reason) or cannot be
    ///   checked.
    func classifyMetadataSQL(
        _ sql: String, fail: (String) -> DBAIServerConfigurationError
    ) throws(DBAIServerConfigurationError) -> ClassifiedStatement {
        do {
            return try classifyNow(sql)
        } catch .rejected(let rejection) {
            throw fail("the SQL does not compile or cannot run here: \(rejection.message)")
        } catch {
            throw fail("the SQL cannot be checked: \(error.description)")
        }
    }

    /// Checks a classified metadata statement against the policy (hidden tables, writable tables).
    ///
    /// - Throws: `fail`'s error, with the policy's reason.
    func authorizeMetadataSQL(
        _ statement: ClassifiedStatement, fail: (String) -> DBAIServerConfigurationError
    ) throws(DBAIServerConfigurationError) {
        do {
            try policy.authorize(statement)
        } catch {
            throw fail("the server's policy refuses it: \(error.message)")
        }
    }
}
