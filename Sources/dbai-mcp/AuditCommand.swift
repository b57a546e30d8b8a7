import ArgumentParser
import Foundation
import Logging
import SwiftDBAI
import SwiftDBAIMCP

/// `dbai-mcp audit show|undo`: reads a write back from an audit log, and reverts it. Parsed on
/// its own (``DBAIMCPCommand/main()`` hands it the arguments after `audit`), so the server's
/// start-up parses nothing more.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbai-mcp audit",
        abstract: "Read a write back from an audit log (--audit-log), and undo it.",
        subcommands: [Show.self, Undo.self])

    /// `dbai-mcp audit show FILE --id ID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one entry of an audit log: what ran, who ran it, how it ended, and each row it changed with its values before and after.")

        @Argument(help: ArgumentHelp("The audit log (its rotated files FILE.1, FILE.2… are searched too).", valueName: "file"))
        var log: String

        @Option(name: .long, help: "The entry's id (the `id` of its lines).")
        var id: String

        @Flag(name: .long, help: "Print the entry's lines as they are in the log (JSON Lines).")
        var json = false

        func run() async throws {
            do {
                let entry = try AuditEntry.find(id: id, inLog: log)
                FileHandle.standardOutput.write(Data(((json ? entry.jsonLines : entry.report) + "\n").utf8))
            } catch {
                throw AuditCommand.fail(error)
            }
        }
    }

    /// `dbai-mcp audit undo FILE --id ID --db FILE [--apply]`.
    struct Undo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the statements that revert a committed write; with --apply, run them, in one transaction, through the policy the flags give, and only if every row still holds what the write left in it.",
            discussion: """
                Give the policy flags the server ran with (--allow, --tables, --write-tables, --metadata): the undo is a \
                write like any other and is refused where they refuse it. Triggers do not fire while the rows are put \
                back (the log restores the rows the write's triggers changed). A write to a table with masked columns, \
                one recorded with --audit-redact-values, or one whose record is incomplete cannot be undone from the log.
                """)

        @Argument(help: ArgumentHelp("The audit log holding the write.", valueName: "file"))
        var log: String

        @Option(name: .long, help: "The write's id (the `id` of its lines).")
        var id: String

        @Option(name: .long, help: ArgumentHelp("The database the write changed, as the server named it ([name=]path).", valueName: "[name=]path"),
                transform: { DatabaseSource(parsing: $0) })
        var db: DatabaseSource

        @Flag(name: .long, help: "Run the statements (without it, they are only printed and the rows checked).")
        var apply = false

        @Option(name: .long, help: ArgumentHelp("As the server's --allow (default: readonly, which refuses every undo).", valueName: "allowlist"),
                transform: { try OperationAllowlist(parsing: $0) })
        var allow: OperationAllowlist = .readOnly

        @Option(name: .long, help: ArgumentHelp("As the server's --tables.", valueName: "a,b"))
        var tables: String?

        @Option(name: .customLong("write-tables"), help: ArgumentHelp("As the server's --write-tables.", valueName: "a,b"))
        var writeTables: String?

        @Option(name: .long, help: ArgumentHelp("As the server's --metadata.", valueName: "file"))
        var metadata: String?

        @Flag(name: .customLong("other-db"), help: "Undo on --db although the write was recorded on another file (a copy, a restored backup): its rows are checked all the same.")
        var otherDatabase = false

        @Option(name: .customLong("audit-log"), help: ArgumentHelp(
            "Where the undo itself is recorded (default: the log it was read from; it must not be held by a running server).",
            valueName: "file"))
        var auditLog: String?

        func run() async throws {
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
            let outcome: AuditUndo.Outcome
            do {
                let undo = try AuditUndo(try AuditEntry.find(id: id, inLog: log))
                if let recorded = undo.entry.databaseFile, !undo.entry.wasMade(on: db.path), !otherDatabase {
                    throw AuditCommand.fail(
                        "write \(undo.entry.id) was made on \(recorded), not \(db.path); give that file, or add --other-db to undo it on this one")
                }
                var loaded = try metadata.map { path in try DatasetteMetadata.load(path: path) }
                // The undo serves one database: the metadata's entries for the others do not apply.
                if let databases = loaded?.databases { loaded?.databases = databases.filter { $0.key == db.name } }
                var configuration = DBAIServerConfiguration(
                    databases: [db], allowlist: allow, visibleTables: DBAIMCPCommand.list(tables),
                    writableTables: DBAIMCPCommand.list(writeTables), metadata: loaded)
                configuration.audit = AuditSettings(path: auditLog ?? log)
                outcome = try await undo.run(configuration: configuration, apply: apply, logger: Logger(label: "dbai-mcp.audit"))
            } catch let error as DBAIServerConfigurationError {
                guard case .auditLog = error else { throw AuditCommand.fail(error) }
                throw AuditCommand.fail("\(error) (to record the undo in another file, pass --audit-log FILE)")
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw AuditCommand.fail(error)
            }
            var text = outcome.statements.map { $0 + ";" }
            if let refusal = outcome.refusal {
                FileHandle.standardOutput.write(Data((text.joined(separator: "\n") + "\n").utf8))
                throw AuditCommand.fail("the write cannot be undone: \(refusal)")
            }
            if let applied = outcome.applied {
                text.append("-- undone: \(applied.rowsAffected) row\(applied.rowsAffected == 1 ? "" : "s") changed.")
            } else {
                text.append("-- not run: every row still holds what the write left in it; add --apply to run these statements.")
            }
            FileHandle.standardOutput.write(Data((text.joined(separator: "\n") + "\n").utf8))
        }
    }

    /// An error as the command ends with it: its description on stderr, exit 1.
    static func fail(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data("dbai-mcp audit: \(String(describing: error))\n".utf8))
        return ExitCode(1)
    }

    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("dbai-mcp audit: \(message)\n".utf8))
        return ExitCode(1)
    }
}
