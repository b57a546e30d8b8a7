import MCP

/// MCP Apps (SEP-1865, revision 2026-01-26, extension `io.modelcontextprotocol/ui`): the host
/// shows ``ResultView`` beside the results of the read tools, in a sandboxed iframe.
///
/// Negotiated: a client declares the extension in `initialize`
/// (`capabilities.extensions["io.modelcontextprotocol/ui"].mimeTypes` holding
/// ``mimeType``), and only then does the server declare it back, link its tools to the view and
/// list the view's resource and its app-only tool. Any other client gets exactly the results
/// and lists it would without the extension.
enum AppsExtension {
    /// The extension's identifier in `capabilities.extensions`.
    static let identifier = "io.modelcontextprotocol/ui"
    /// The MIME type of an HTML view.
    static let mimeType = "text/html;profile=mcp-app"

    /// True when a client's `initialize` params declare the extension with HTML views.
    static func isDeclared(inInitialize params: Value?) -> Bool {
        isDeclared(inCapabilities: params?.objectValue?["capabilities"])
    }

    /// True when client capabilities (from `initialize`, or a 2026-07-28 request's `_meta`)
    /// declare the extension with HTML views.
    static func isDeclared(inCapabilities capabilities: Value?) -> Bool {
        let extensionSettings = capabilities?.objectValue?["extensions"]?.objectValue?[identifier]
        let mimeTypes = extensionSettings?.objectValue?["mimeTypes"]?.arrayValue ?? []
        return mimeTypes.contains { $0.stringValue?.lowercased().replacingOccurrences(of: " ", with: "") == mimeType }
    }

    /// What the server declares under `capabilities.extensions` in its `initialize` result.
    static let serverSettings: Value = ["mimeTypes": [.string(mimeType)]]

    /// The `_meta` of a tool whose results the view shows (`visibility` nil: the model and the
    /// app, the default).
    static func toolMeta(_ existing: Metadata?, visibility: [String]? = nil) -> Metadata {
        var ui: [String: Value] = ["resourceUri": .string(ResultView.uri)]
        if let visibility { ui["visibility"] = .array(visibility.map(Value.string)) }
        var fields = existing?.fields ?? [:]
        fields["ui"] = .object(ui)
        return Metadata(additionalFields: fields)
    }
}
