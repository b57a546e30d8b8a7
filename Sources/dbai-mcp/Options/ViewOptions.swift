import ArgumentParser
import SwiftDBAIMCP

/// How the server presents itself to a client: its tools' names and the MCP Apps view.
struct ViewOptions: ParsableArguments {
    @Option(name: .customLong("tool-prefix"), help: ArgumentHelp(
        "Name the tools NAME_query, NAME_describe_schema, … so that several servers fit in one agent (empty: no prefix).",
        valueName: "name"), transform: { try ToolNaming(prefix: $0) })
    var toolPrefix: ToolNaming?

    @Flag(name: .customLong("no-ui"), help: "Offer no MCP Apps view (ui://dbai/result) even to hosts that show them: results as text and structured content only.")
    var noUI = false

    var toolNaming: ToolNaming { toolPrefix ?? .plain }
    var offersViews: Bool { !noUI }
}
