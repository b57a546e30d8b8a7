import Foundation
import MCP

/// The running MCP server, for the parts made before it exists (the `ask` confirmation
/// delegate, the sampling model). Weak: it never keeps a stopped server alive.
final class ServerReference: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: Server?

    var server: Server? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
