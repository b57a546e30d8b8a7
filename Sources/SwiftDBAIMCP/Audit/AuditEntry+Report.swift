import Foundation
import MCP
import SwiftDBAIMCPKernel

extension AuditEntry {
    /// The entry for a person (`dbai-mcp audit show`): what ran, who ran it, how it ended, and
    /// each row it changed with its values before and after (an update shows the columns it
    /// changed).
    public var report: String {
        var out: [String] = []
        let kind = text(of: "kind") ?? "call"
        out.append("\(kind) \(id): \(outcome)")
        if let time = lines.first?["time"]?.stringValue.map(Self.clean) {
            let last = lines.last?["time"]?.stringValue.map(Self.clean)
            out.append("  time:         \(time)\(last.map { $0 == time ? "" : " – \($0)" } ?? "")")
        }
        if let tool = text(of: "tool") { out.append("  tool:         \(tool)") }
        if let database = field("database")?.objectValue {
            out.append("  database:     \(Self.string(database["name"])) (\(Self.string(database["file"])))")
        }
        if let client = field("client")?.objectValue { out.append("  caller:       \(Self.caller(client))") }
        if let confirmation = text(of: "confirmation") { out.append("  confirmation: \(confirmation)") }
        if let undone = text(of: "undoes") { out.append("  undoes:       \(undone)") }
        if let affected = field("rows_affected")?.intValue { out.append("  rows affected: \(affected)") }
        if let code = text(of: "code") {
            out.append("  reason:       \(code): \(text(of: "message") ?? "")")
        } else if let message = text(of: "message") {
            out.append("  note:         \(message)")
        }
        if case .array(let statements)? = field("statements"), !statements.isEmpty {
            out.append("  statements:")
            for statement in statements {
                guard let object = statement.objectValue else { continue }
                out.append("    \(Self.string(object["sql"]))")
                if let values = object["values"], values != .array([]), values != .object([:]) {
                    out.append("      values: \(Self.json(values))")
                }
            }
        }
        if case .array(let rows)? = field("changes") {
            out.append("  rows changed (\(rows.count)):")
            for row in rows.compactMap(\.objectValue) { out.append(contentsOf: Self.describe(row)) }
        }
        if let incomplete = text(of: "changes_incomplete") {
            out.append("  not every row is listed: \(incomplete)")
        }
        return out.joined(separator: "\n")
    }

    /// Who made the call: the signed-in caller, the static token's digest, the transport.
    private static func caller(_ client: [String: Value]) -> String {
        var parts: [String] = []
        if let caller = client["caller"]?.objectValue {
            var signedIn = "sub \(string(caller["sub"])) of \(string(caller["iss"]))"
            if caller["client_id"] != nil { signedIn += ", client \(string(caller["client_id"]))" }
            if case .array(let scopes)? = caller["scopes"] {
                signedIn += ", scopes \(clean(scopes.compactMap(\.stringValue).joined(separator: " ")))"
            }
            parts.append(signedIn)
        }
        if client["token_sha256"] != nil { parts.append("token sha256 \(string(client["token_sha256"]))") }
        if client["name"] != nil {
            parts.append("client \(string(client["name"]))\(client["version"] != nil ? " " + string(client["version"]) : "")")
        }
        if client["user"] != nil { parts.append("user \(string(client["user"]))") }
        parts.append("over \(string(client["transport"]))")
        return parts.joined(separator: "; ")
    }

    /// One row: what happened to it, and its values.
    private static func describe(_ row: [String: Value]) -> [String] {
        let table = string(row["table"])
        let name = row["rowid"]?.intValue.map { "\(table) rowid \($0)" } ?? table
        switch (row["before"]?.objectValue, row["after"]?.objectValue) {
        case (nil, .some(let after)):
            return ["    \(name): inserted"] + after.keys.sorted().map { "      \(clean($0)): \(json(after[$0] ?? .null))" }
        case (.some(let before), nil):
            return ["    \(name): deleted"] + before.keys.sorted().map { "      \(clean($0)): \(json(before[$0] ?? .null))" }
        case (.some(let before), .some(let after)):
            let changed = Set(before.keys).union(after.keys).sorted().filter { before[$0] != after[$0] }
            let masked = Set(before.keys).union(after.keys).sorted().filter { before[$0] == after[$0] && before[$0]?.objectValue?["masked"] != nil }
            var lines = ["    \(name): updated"]
            lines += changed.map { "      \(clean($0)): \(json(before[$0] ?? .null)) → \(json(after[$0] ?? .null))" }
            if !masked.isEmpty { lines.append("      (masked, not shown: \(clean(masked.joined(separator: ", "))))") }
            return lines
        default:
            return ["    \(name): unchanged"]
        }
    }

    /// A string field of the entry's lines, cleaned.
    private func text(of name: String) -> String? {
        field(name)?.stringValue.map(Self.clean)
    }

    /// A string value, cleaned; `?` when it is missing or not a string.
    private static func string(_ value: Value?) -> String {
        value?.stringValue.map(clean) ?? "?"
    }

    private static func json(_ value: Value) -> String {
        clean(String(decoding: JSONMessageWriter.data(value), as: UTF8.self))
    }

    /// A string from the log as a line prints it: control characters (a newline that would start
    /// a line of its own, a terminal escape) and direction overrides written as `\u{…}`.
    static func clean(_ text: String) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7f...0x9f).contains(value) || (0x202a...0x202e).contains(value) || (0x2066...0x2069).contains(value) {
                output += "\\u{\(String(value, radix: 16))}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
