import ArgumentParser
import SwiftDBAIMCP

/// The files the server writes beside the databases: the audit log, and the state kept across
/// restarts.
struct AuditAndStateOptions: ParsableArguments {
    @Option(name: .customLong("audit-log"), help: ArgumentHelp(
        "Record every write attempt (insert, update, delete, canned writes, writes `ask` proposed) as a JSON line in this file, written to disk before the write's commit is reported; a write that cannot be recorded is refused.",
        valueName: "file"))
    var auditLog: String?

    @Flag(name: .customLong("audit-reads"), help: "Record reads in the audit log too (every tool call that is not a write).")
    var auditReads = false

    @Flag(name: .customLong("audit-redact-values"), help: "Record each bound value in the audit log as its type and length only.")
    var auditRedactValues = false

    @Option(name: .customLong("audit-log-max-mb"), help: ArgumentHelp(
        "Rotate the audit log to FILE.1, FILE.2… (none deleted) when it would grow past this many MiB.", valueName: "MiB"))
    var auditLogMaxMB: Int?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp(
        "Keep `ask` conversations in DIR/conversations.sqlite (created when missing; never in a served database), so a conversation_id continues after a restart.",
        valueName: "dir"))
    var stateDirectory: String?

    @Option(name: .customLong("conversation-ttl"), help: ArgumentHelp(
        "How long a conversation nobody continues is kept in --state-dir: seconds, or a number with s, m, h or d (default 7d).",
        valueName: "duration"))
    var conversationTTL: String?

    func validate() throws {
        if auditLog == nil, auditReads || auditRedactValues || auditLogMaxMB != nil {
            throw ValidationError("--audit-reads, --audit-redact-values and --audit-log-max-mb need --audit-log FILE.")
        }
        if let auditLogMaxMB, !(1...(1 << 20)).contains(auditLogMaxMB) {
            throw ValidationError("--audit-log-max-mb must be from 1 to 1048576.")
        }
        if auditLog?.isEmpty == true { throw ValidationError("--audit-log needs a file path.") }
        if stateDirectory?.isEmpty == true { throw ValidationError("--state-dir needs a directory path.") }
        if let conversationTTL {
            guard stateDirectory != nil else { throw ValidationError("--conversation-ttl needs --state-dir DIR.") }
            guard Self.seconds(conversationTTL) != nil else {
                throw ValidationError("--conversation-ttl \(conversationTTL) is not a duration: give seconds (3600) or a number with s, m, h or d (12h, 7d), more than 0.")
            }
        }
    }

    var audit: AuditSettings? {
        auditLog.map { path in
            AuditSettings(
                path: path, recordsReads: auditReads, redactsValues: auditRedactValues, maxBytes: auditLogMaxMB.map { $0 << 20 })
        }
    }

    var conversationArchive: ConversationArchiveSettings? {
        stateDirectory.map { directory in
            ConversationArchiveSettings(
                directory: directory, timeToLive: .seconds(conversationTTL.flatMap(Self.seconds) ?? 7 * 24 * 3600))
        }
    }

    /// Seconds in a duration: `3600`, `45s`, `30m`, `12h`, `7d`; nil for anything else or 0.
    static func seconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(trimmed)
        var unit = 1
        if let last = trimmed.last, let factor = units[last] {
            unit = factor
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number > 0, number <= Int.max / unit / 1_000 else { return nil }
        return number * unit
    }
}
