import MCP

/// The client request a task is answering, so that a transport can send what the server says
/// meanwhile (progress, log messages, elicitation and sampling requests) along with that request:
/// over Streamable HTTP, on the response stream of the POST that carried it.
package enum RelatedRequest {
    /// The id of the `tools/call` being answered; nil outside a call.
    @TaskLocal package static var id: ID?
}
