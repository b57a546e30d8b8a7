import Foundation
import MCP

/// A transport that sends each response on its request's own channel (Streamable HTTP: the
/// response stream of the POST that carried the request), told which request a message answers
/// by ``RoutingTransport``, which knows it without reading the message again.
protocol RequestRoutedTransport: Transport {
    /// Sends a message: the response to request `id`, or, for nil, anything else.
    func send(_ data: Data, answering id: ID?) async throws
}
