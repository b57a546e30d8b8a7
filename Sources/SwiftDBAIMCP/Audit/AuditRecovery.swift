import Foundation
import Logging
import MCP
import SwiftDBAI

/// Completes the audit log at start-up: a `pending` line with no outcome after it is a write
/// whose process was killed between recording it and reporting it. Whether it committed is read
/// from the database: its rows hold what the write left in them (`rows_digest`) or not. The
/// outcome is appended with `"recovered": true`.
enum AuditRecovery {
    /// Appends an outcome for every unresolved `pending` line near the end of the log.
    ///
    /// - Throws: ``DBAIServerConfigurationError/auditLog(_:reason:)`` when an outcome cannot
    ///   be written.
    static func complete(_ log: AuditLog, databases: [ServedDatabase], logger: Logger) throws(DBAIServerConfigurationError) {
        for entry in log.unresolvedPending() {
            let (outcome, message) = resolve(entry, databases: databases)
            var line = AuditRecord(reading: entry, outcome: outcome)
            line["recovered"] = true
            line["message"] = .string(message)
            do {
                // Beside its pending line: no rotation in between.
                try log.append(line.bytes, durable: true, rotating: false)
            } catch {
                throw .auditLog(log.settings.path, reason: error.description)
            }
            logger.warning("audit: write \(entry["id"]?.stringValue ?? "?") was left pending by a stopped process: \(outcome.rawValue)")
        }
    }

    /// The outcome of a pending write, read from the database it names.
    static func resolve(_ entry: [String: Value], databases: [ServedDatabase]) -> (AuditOutcome, String) {
        let stopped = "The process stopped between recording this write and reporting its outcome"
        guard let file = entry["database"]?.objectValue?["file"]?.stringValue,
              let database = databases.first(where: { AuditRecord.absolutePath($0.executor.path) == file })
        else {
            return (.unknown, stopped + "; its database was not served at the next start, so it was not checked.")
        }
        var rowIDs: [String: [Int64]] = [:]
        for (table, ids) in entry["rowids"]?.objectValue ?? [:] {
            rowIDs[table] = (ids.arrayValue ?? []).compactMap { $0.intValue.map(Int64.init) }
        }
        let affected = entry["rows_affected"]?.intValue ?? 0
        guard !rowIDs.values.allSatisfy(\.isEmpty) || affected == 0, let recorded = entry["rows_digest"]?.stringValue else {
            return (.unknown, stopped + "; its rows have no rowid to check, so whether it committed is not known.")
        }
        do {
            let now = try database.executor.rowsDigestNow(of: rowIDs)
            if now == recorded {
                return (.committed, stopped + ": its rows hold what it wrote, so it committed.")
            }
            return (.rolledBack, stopped + ": its rows do not hold what it wrote, so it did not commit (or they changed since).")
        } catch {
            return (.unknown, stopped + "; its rows could not be read (\(error.description)).")
        }
    }
}
