import Foundation

/// Where the messages about one request go: the stdio output, the stream of the HTTP POST that
/// carried the request, or a session's stream.
///
/// Requests that share a ``scope`` share one space of ids: a second request with the id of one
/// still running in the same scope is refused, and `notifications/cancelled` names a request of
/// its own scope. Over stdio and in an HTTP session there is one scope; every stateless HTTP POST
/// is a scope of its own.
package protocol ReplyChannel: Sendable {
    /// The id space of the channel's requests.
    var scope: Int { get }
    /// How the channel's requests reach the server (for audit records).
    var origin: ClientOrigin { get }
    /// Sends a message that belongs to the request but does not end it: a notification
    /// (progress, log) or a request to the client (elicitation, sampling).
    func send(_ data: Data) async throws
    /// Sends the final response to the request.
    func respond(_ data: Data) async throws
    /// Sends the error response to a message refused before it ran: not valid JSON-RPC, or a
    /// request with the id of one still running in the channel's scope. Nothing in flight ends
    /// with it; over HTTP it is the POST's answer, with status 400.
    func refuse(_ data: Data) async throws
    /// Says the request was cancelled and gets no response: a stream waiting for it can end.
    func abandon() async
}

extension ReplyChannel {
    package func abandon() async {}
    package var origin: ClientOrigin { .stdio }
}
