import Foundation
import MCP
import SwiftDBAIMCPKernel

extension AuditEntry {
    /// The entry for a person (`dbai-mcp audit show`): what ran, who ran it, how it ended, and
    /// each row it changed with its values before and after (an update shows the columns it
    /// changed).
    public var report: String {
        var text: [String] = []
        let kind = field("kind")?.stringValue ?? "call"
        text.append("\(kind) \(id): \(outcome)")
        if let time = lines.first?["time"]?.stringValue {
            let last = lines.last?["time"]?.stringValue
            text.append("  time:         \(time)\(last.map { $0 == time ? "" : " – \($0)" } ?? "")")
        }
        if let tool = field("tool")?.stringValue { text.append("  tool:         \(tool)") }
        if let database = field("database")?.objectValue {
            text.append("  database:     \(database["name"]?.stringValue ?? "?") (\(database["file"]?.stringValue ?? "?"))")
        }
        if let client = field("client")?.objectValue { text.append("  caller:       \(Self.caller(client))") }
        if let confirmation = field("confirmation")?.stringValue { text.append("  confirmation: \(confirmation)") }
        if let undone = field("undoes")?.stringValue { text.append("  undoes:       \(undone)") }
        if let affected = field("rows_affected")?.intValue { text.append("  rows affected: \(affected)") }
        if let code = field("code")?.stringValue {
            text.append("  reason:       \(code): \(field("message")?.stringValue ?? "")")
        } else if let message = field("message")?.stringValue {
            text.append("  note:         \(message)")
        }
        if case .array(let statements)? = field("statements"), !statements.isEmpty {
            text.append("  statements:")
            for statement in statements {
                guard let object = statement.objectValue else { continue }
                text.append("    \(object["sql"]?.stringValue ?? "")")
                if let values = object["values"], values != .array([]), values != .object([:]) {
                    text.append("      values: \(Self.json(values))")
                }
            }
        }
        if case .array(let rows)? = field("changes") {
            text.append("  rows changed (\(rows.count)):")
            for row in rows.compactMap(\.objectValue) { text.append(contentsOf: Self.describe(row)) }
        }
        if let incomplete = field("changes_incomplete")?.stringValue {
            text.append("  not every row is listed: \(incomplete)")
        }
        return text.joined(separator: "\n")
    }

    /// Who made the call: the signed-in caller, the static token's digest, the transport.
    private static func caller(_ client: [String: Value]) -> String {
        var parts: [String] = []
        if let caller = client["caller"]?.objectValue {
            var signedIn = "sub \(caller["sub"]?.stringValue ?? "?") of \(caller["iss"]?.stringValue ?? "?")"
            if let clientID = caller["client_id"]?.stringValue { signedIn += ", client \(clientID)" }
            if case .array(let scopes)? = caller["scopes"] {
                signedIn += ", scopes \(scopes.compactMap(\.stringValue).joined(separator: " "))"
            }
            parts.append(signedIn)
        }
        if let token = client["token_sha256"]?.stringValue { parts.append("token sha256 \(token)") }
        if let name = client["name"]?.stringValue {
            parts.append("client \(name)\(client["version"]?.stringValue.map { " \($0)" } ?? "")")
        }
        if let user = client["user"]?.stringValue { parts.append("user \(user)") }
        parts.append("over \(client["transport"]?.stringValue ?? "?")")
        return parts.joined(separator: "; ")
    }

    /// One row: what happened to it, and its values.
    private static func describe(_ row: [String: Value]) -> [String] {
        let table = row["table"]?.stringValue ?? "?"
        let name = row["rowid"]?.intValue.map { "\(table) rowid \($0)" } ?? table
        switch (row["before"]?.objectValue, row["after"]?.objectValue) {
        case (nil, .some(let after)):
            return ["    \(name): inserted"] + after.keys.sorted().map { "      \($0): \(json(after[$0] ?? .null))" }
        case (.some(let before), nil):
            return ["    \(name): deleted"] + before.keys.sorted().map { "      \($0): \(json(before[$0] ?? .null))" }
        case (.some(let before), .some(let after)):
            let changed = Set(before.keys).union(after.keys).sorted().filter { before[$0] != after[$0] }
            let masked = Set(before.keys).union(after.keys).sorted().filter { before[$0] == after[$0] && before[$0]?.objectValue?["masked"] != nil }
            var lines = ["    \(name): updated"]
            lines += changed.map { "      \($0): \(json(before[$0] ?? .null)) → \(json(after[$0] ?? .null))" }
            if !masked.isEmpty { lines.append("      (masked, not shown: \(masked.joined(separator: ", ")))") }
            return lines
        default:
            return ["    \(name): unchanged"]
        }
    }

    private static func json(_ value: Value) -> String {
        String(decoding: JSONMessageWriter.data(value), as: UTF8.self)
    }
}
