import Hummingbird
import NIOCore

/// The request context of the MCP routes: Hummingbird's basic one, and the connection the
/// request came on (closed after a body refused for its size).
struct MCPRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
