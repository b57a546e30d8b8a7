import MCP

/// The one MCP Apps view of the server, `ui://dbai/result`: a result of `query`, `aggregate`,
/// `ask` or a canned read as a table (sortable) and, when the result suits one, a chart; the SQL
/// that ran; more rows through ``ViewRowsTool``. One self-contained HTML document
/// (``ResultViewDocument``), with no external request, so it runs under the restrictive default
/// CSP of the specification: the resource declares no CSP domains.
///
/// The document is the one answer not bound by `--max-result-bytes`: it is the server's own
/// fixed code, not data, and the host needs all of it.
enum ResultView {
    static let uri = "ui://dbai/result"

    /// The entry of `resources/list` (listed only to clients that negotiated the extension).
    static let resource = Resource(
        name: "result-view", uri: uri, title: "Result view",
        description: "Shows a query result as a table (sortable) and, when it suits one, a bar, line or pie chart; "
            + "with the SQL that ran and more rows on demand.",
        mimeType: AppsExtension.mimeType)

    /// The contents of `resources/read`: the HTML, asking the host for a border.
    static func read() -> [Resource.Content] {
        [.text(
            ResultViewDocument.html, uri: uri, mimeType: AppsExtension.mimeType,
            _meta: Metadata(additionalFields: ["ui": ["prefersBorder": true]]))]
    }
}
