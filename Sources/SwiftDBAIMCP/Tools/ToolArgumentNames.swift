import SwiftDBAIPrimitives

/// The arguments each tool takes, by the name clients call it by (a canned query may share a
/// built-in tool's unprefixed name): the properties of its input schema, read from its
/// definition at its first call and kept.
final class ToolArgumentNames: Sendable {
    private let known = Mutex([String: Set<String>]())

    /// The arguments of `tool`, called as `name`.
    func names(of tool: any DatabaseTool, calledAs name: String) -> Set<String> {
        if let names = known.withLock({ $0[name] }) { return names }
        let names = ToolRegistry.argumentNames(of: tool.definition)
        known.withLock { $0[name] = names }
        return names
    }
}
