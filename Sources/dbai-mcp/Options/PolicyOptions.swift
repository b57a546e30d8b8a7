import ArgumentParser
import SwiftDBAI

/// What may be done: the operations allowed, the tables seen and written, and whether
/// destructive writes ask first.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Allowed operations: readonly, standard (select, insert, update), unrestricted (+ delete), or a list such as select,insert. (default: readonly)",
        valueName: "allowlist"), transform: { try OperationAllowlist(parsing: $0) })
    var allow: OperationAllowlist = .readOnly

    @Option(name: .long, help: ArgumentHelp(
        "Only these tables and views can be seen, read or written (NAME.table for one database's table).", valueName: "a,b"))
    var tables: String?

    @Option(name: .customLong("write-tables"), help: ArgumentHelp(
        "Only these tables can be written (NAME.table for one database's table).", valueName: "a,b"))
    var writeTables: String?

    @Flag(name: .customLong("no-confirm"), help: "Run destructive writes, and writes a model wrote for `ask`, without asking for confirmation (automation only).")
    var noConfirm = false

    var visibleTables: [String]? { Self.list(tables) }
    var writableTables: [String]? { Self.list(writeTables) }

    private static func list(_ text: String?) -> [String]? {
        text.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }
}
