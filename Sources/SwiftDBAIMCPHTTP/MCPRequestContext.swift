import Hummingbird
import NIOCore
import SwiftDBAIMCPKernel

/// The request context of the MCP routes: Hummingbird's basic one, the connection the request
/// came on (closed after a body refused for its size), and the caller the gate admitted.
struct MCPRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel
    /// Who sent the request, as the OAuth access token it carried says (set by the gate).
    var caller: CallerIdentity?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
