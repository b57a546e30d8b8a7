import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// One tool call's run in an audit log: every line with its id (a write's `pending` line, then
/// its outcome), found in the log or the files it was rotated to. `dbai-mcp audit show` prints
/// it; `dbai-mcp audit undo` reverts the write from its rows' values.
public struct AuditEntry: Sendable {
    /// The id the lines share.
    public let id: String
    /// The lines, in the order of the log.
    let lines: [[String: Value]]
    /// The file they were found in.
    public let file: String

    /// Finds the lines with `id` in the log at `path`, then in `path.1`, `path.2`, … (older).
    ///
    /// - Throws: ``AuditEntryError`` when no line has the id, or the log cannot be read.
    public static func find(id: String, inLog path: String) throws(AuditEntryError) -> AuditEntry {
        let wanted = id.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty, wanted.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw AuditEntryError("\(id) is not an audit entry id (the `id` of a line: 36 characters such as 0f8e…-…)")
        }
        var files = [path]
        while FileManager.default.fileExists(atPath: "\(path).\(files.count)") { files.append("\(path).\(files.count)") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.isReadableFile(atPath: path), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
              !isDirectory.boolValue
        else {
            throw AuditEntryError("the audit log \(path) cannot be read (it does not exist, is not a file, or is not readable)")
        }
        let needle = Array("\"id\":\"\(wanted)\"".utf8)
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            var lines: [[String: Value]] = []
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            where line.count >= needle.count && line.firstRange(of: needle) != nil {
                guard case .object(let fields)? = try? JSONMessageParser.parse(Data(line)), fields["id"]?.stringValue == wanted else {
                    continue
                }
                lines.append(fields)
            }
            if !lines.isEmpty { return AuditEntry(id: wanted, lines: lines, file: file) }
        }
        throw AuditEntryError("no line of \(path)\(files.count > 1 ? " (or of its \(files.count - 1) older files)" : "") has the id \(wanted)")
    }

    /// The field of the entry's last line that has it.
    func field(_ name: String) -> Value? {
        lines.last { $0[name] != nil }?[name]
    }

    /// The absolute path of the database file the call worked on, as its lines name it.
    public var databaseFile: String? { field("database")?.objectValue?["file"]?.stringValue }

    /// True when the call worked on the database file at `path` (relative to the current
    /// directory), or its lines do not say.
    public func wasMade(on path: String) -> Bool {
        databaseFile.map { $0 == AuditRecord.absolutePath(path) } ?? true
    }

    /// How the call ended: the outcome of its last line.
    public var outcome: String { field("outcome")?.stringValue ?? "unknown" }

    /// The lines as JSON Lines (keys sorted), as the log holds them.
    public var jsonLines: String {
        lines.map { String(decoding: JSONMessageWriter.data(.object($0)), as: UTF8.self) }.joined(separator: "\n")
    }

    /// The rows the write changed, as its `pending` line recorded them.
    ///
    /// - Throws: ``AuditEntryError`` when the line holds none, or holds them without the values
    ///   an undo needs (masked columns, `--audit-redact-values`, an incomplete record).
    public func rowChanges() throws(AuditEntryError) -> RowChanges {
        guard case .array(let rows)? = field("changes") else {
            throw AuditEntryError("entry \(id) records no row values (a read, a write that did not run, or a log written before they were recorded)")
        }
        var changes = RowChanges(incompleteReason: field("changes_incomplete")?.stringValue)
        for row in rows {
            guard case .object(let fields) = row, let table = fields["table"]?.stringValue else {
                throw AuditEntryError("entry \(id) has a row without its table")
            }
            func image(_ key: String) throws(AuditEntryError) -> [String: SQLValue]? {
                guard case .object(let values)? = fields[key] else { return nil }
                var image: [String: SQLValue] = [:]
                for (column, value) in values {
                    guard let sqlValue = AuditRecord.sqlValue(fromRowValue: value) else {
                        let object = value.objectValue ?? [:]
                        let why =
                            object["masked"] != nil ? "masked"
                            : object["type"] != nil ? "recorded without its value (--audit-redact-values)"
                            : "not a value the log writes"
                        throw AuditEntryError("the value of \(table).\(column) is \(why): the log cannot put it back")
                    }
                    image[column] = sqlValue
                }
                return image
            }
            changes.rows.append(RowChange(
                table: table, rowID: fields["rowid"]?.intValue.map(Int64.init), before: try image("before"), after: try image("after")))
        }
        return changes
    }
}

/// Why an audit entry cannot be found, read or undone.
public struct AuditEntryError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
