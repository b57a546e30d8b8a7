import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// How an attempt ended, as its audit line says (`outcome`).
enum AuditOutcome: String, Sendable {
    /// Recorded before the commit: the outcome follows in a line with the same id.
    case pending
    /// In the database.
    case committed
    /// The statements ran and were undone: nothing of them is in the database.
    case rolledBack = "rolled_back"
    /// Nothing ran: the policy, a confirmation, the arguments or the audit log said no.
    case refused
    /// A read that returned its answer (`--audit-reads`).
    case read
    /// A read that failed (`--audit-reads`).
    case failed
    /// Found `pending` at start-up and not checkable against the database.
    case unknown
}

/// How a write was confirmed, as its audit line says (`confirmation`).
enum AuditConfirmation: String, Sendable {
    /// Nothing needed confirming under the mutation policy.
    case notNeeded = "not_needed"
    /// The user answered `elicitation/create` (2025-11-25 and older).
    case elicitation
    /// A `confirm` token from an earlier preview.
    case token
    /// The 2026-07-28 round trip: a retry carrying the user's answer and the signed state.
    case retry
    /// `--no-confirm`: the server confirms nothing.
    case noConfirm = "no_confirm"
    /// A person ran `dbai-mcp audit undo --apply`.
    case apply
}

/// One line of the audit log, built field by field; ``bytes`` is the JSON (keys sorted).
///
/// Schema version 1 (``version``), documented in the README: `v`, `id`, `time`, `kind`, `tool`,
/// `database` {`name`, `file`}, `client` {`transport`, `name`, `version`, `protocol`, `session`,
/// `token_sha256`, `caller` {`iss`, `sub`, `client_id`, `scopes`}}, `statements` [{`sql`,
/// `values`}], `confirmation`, `outcome`, and by outcome `rows_affected`, `last_insert_rowid`,
/// `rowids`, `rowids_truncated`, `rows_digest`, `code`, `message`, `recovered`; a `pending` line
/// also `changes` [{`table`, `rowid`, `before`, `after`}] and `changes_incomplete`.
struct AuditRecord: Sendable {
    /// The version of the line format. Fields may be added within a version; none is removed
    /// or changes meaning.
    static let version = 1

    private(set) var fields: [String: Value]

    init(id: String, kind: String, tool: String, client: Value, outcome: AuditOutcome, time: Date = Date()) {
        fields = [
            "v": .int(Self.version), "id": .string(id), "time": .string(Self.timestamp(time)), "kind": .string(kind),
            "tool": .string(tool), "client": client, "outcome": .string(outcome.rawValue),
        ]
    }

    /// A line read back from the log (start-up recovery), to be written again with its outcome.
    init(reading fields: [String: Value], outcome: AuditOutcome, time: Date = Date()) {
        self.fields = fields
        self.fields["outcome"] = .string(outcome.rawValue)
        self.fields["time"] = .string(Self.timestamp(time))
    }

    subscript(key: String) -> Value? {
        get { fields[key] }
        set { fields[key] = newValue }
    }

    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        JSONMessageWriter.write(.object(fields), into: &bytes)
        return bytes
    }

    mutating func setDatabase(name: String, file: String) {
        fields["database"] = ["name": .string(name), "file": .string(file)]
    }

    mutating func setStatements(_ statements: [BoundStatement], redacting: Bool, masking: Bool = false) {
        fields["statements"] = .array(statements.map { statement in
            ["sql": .string(statement.sql), "values": Self.values(statement.arguments, redacting: redacting, masking: masking)]
        })
    }

    /// What a committed (or about to commit) write changed.
    mutating func setChanges(_ write: JournaledWrite) {
        fields["rows_affected"] = .int(write.rowsAffected)
        if let rowID = write.lastInsertRowID { fields["last_insert_rowid"] = .int(Int(rowID)) }
        fields["rowids"] = .object(write.rowIDs.mapValues { .array($0.map { .int(Int($0)) }) })
        if write.rowIDsTruncated { fields["rowids_truncated"] = true }
        fields["rows_digest"] = .string(write.rowsDigest)
    }

    /// How a line writes the values of a write's rows.
    struct ValueForm: Sendable {
        /// Each value as its type and size (`--audit-redact-values`).
        var redacting = false
        /// Masked and hidden columns by table (case-folded): `{"masked": true}`, besides those a
        /// row names itself (``SwiftDBAI/RowChange/protectedColumns``).
        var protectedColumns: [String: Set<String>] = [:]
        /// Every value `{"masked": true}` (the database is not known).
        var masksAll = false
    }

    /// The rows a write changed, with their values before and after (`changes`), and why the
    /// list is not the whole write (`changes_incomplete`).
    mutating func setRowChanges(_ changes: RowChanges, values form: ValueForm) {
        fields["changes"] = .array(changes.rows.map { row in
            let protected = (form.protectedColumns[SQLIdentifier.foldCase(row.table)] ?? [])
                .union(row.protectedColumns.map(SQLIdentifier.foldCase))
            func image(_ values: [String: SQLValue]?) -> Value {
                guard let values else { return .null }
                var object: [String: Value] = [:]
                for (column, value) in values {
                    object[column] =
                        form.masksAll || protected.contains(SQLIdentifier.foldCase(column)) ? ["masked": true]
                        : form.redacting ? Self.redacted(value) : Self.rowValue(value)
                }
                return .object(object)
            }
            var entry: [String: Value] = ["table": .string(row.table), "before": image(row.before), "after": image(row.after)]
            if let rowID = row.rowID { entry["rowid"] = .int(Int(rowID)) }
            return .object(entry)
        })
        if let reason = changes.incompleteReason { fields["changes_incomplete"] = .string(reason) }
    }

    /// A row's value as a line writes it, without loss: a number, a string, null, a blob as
    /// `{"base64": …, "bytes": N}`, a real JSON cannot write as `{"real": "Infinity"}`.
    static func rowValue(_ value: SQLValue) -> Value {
        if case .real(let real) = value, !real.isFinite {
            return ["real": .string(real.isNaN ? "NaN" : (real > 0 ? "Infinity" : "-Infinity"))]
        }
        return Value(value)
    }

    /// The value ``rowValue(_:)`` wrote; nil for a value the line does not hold (masked,
    /// redacted) or does not write that way.
    static func sqlValue(fromRowValue value: Value) -> SQLValue? {
        switch value {
        case .null: return .null
        case .int(let integer): return .integer(Int64(integer))
        case .double(let double): return .real(double)
        case .string(let text): return .text(text)
        case .object(let object):
            if let base64 = object["base64"]?.stringValue, let data = Data(base64Encoded: base64) { return .blob(data) }
            switch object["real"]?.stringValue {
            case "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            default: return nil
            }
        default: return nil
        }
    }

    /// Why nothing (or nothing more) was changed.
    mutating func setReason(code: String, message: String) {
        fields["code"] = .string(code)
        fields["message"] = .string(Echo.clipped(message, to: 1_000))
    }

    /// The client as a line names it.
    static func client(_ facts: ClientFacts, origin: ClientOrigin) -> Value {
        let identity = facts.identity
        var client: [String: Value] = ["transport": .string(origin.transport)]
        if case .object(let info)? = identity.info {
            client["name"] = info["name"].flatMap { $0.stringValue.map { .string(Echo.clipped($0, to: 200)) } }
            client["version"] = info["version"].flatMap { $0.stringValue.map { .string(Echo.clipped($0, to: 100)) } }
        }
        if let version = identity.protocolVersion { client["protocol"] = .string(version) }
        if let session = origin.session { client["session"] = .string(session) }
        if let token = origin.tokenSHA256 { client["token_sha256"] = .string(token) }
        if let caller = origin.caller {
            var identity: [String: Value] = [
                "iss": .string(caller.issuer), "sub": .string(caller.subject),
                "scopes": .array(caller.scopes.sorted().map(Value.string)),
            ]
            if let clientID = caller.clientID { identity["client_id"] = .string(clientID) }
            client["caller"] = .object(identity)
        }
        return .object(client)
    }

    /// Bound values as JSON, or with `redacting`, each as its type and size, or with `masking`
    /// (a database with masked or hidden columns), each as `{"masked": true}`.
    static func values(_ arguments: SQLArguments, redacting: Bool, masking: Bool = false) -> Value {
        let convert = { (value: SQLValue) -> Value in masking ? ["masked": true] : redacting ? redacted(value) : Value(value) }
        switch arguments {
        case .positional(let values): return .array(values.map(convert))
        case .named(let values): return .object(values.mapValues(convert))
        }
    }

    /// `{"type": storage class, "length": bytes of text or blob, characters of a number}`.
    static func redacted(_ value: SQLValue) -> Value {
        let length: Int? =
            switch value {
            case .null: nil
            case .integer(let number): String(number).count
            case .real(let number): String(number).count
            case .text(let text): text.utf8.count
            case .blob(let data): data.count
            }
        var object: [String: Value] = ["type": .string(value.storageClass)]
        if let length { object["length"] = .int(length) }
        return .object(object)
    }

    /// A file's path as a line names it: absolute, without `.` or `..`.
    static func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (absolute as NSString).standardizingPath
    }

    /// `2026-11-27T05:31:02.123Z`.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, Int((interval - Double(seconds)) * 1_000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2)).\(padded(Int32(milliseconds), 3))Z"
    }
}
