import Foundation
import MCP
import SwiftDBAI

/// The running MCP server, for the parts made before it exists (the `ask` confirmation
/// delegate, the sampling model). Weak: it never keeps a stopped server alive.
final class ServerReference: Sendable {
    private struct WeakServer {
        weak var server: Server?
    }

    private let stored = Mutex(WeakServer())

    var server: Server? {
        get { stored.withLock { $0.server } }
        set { stored.withLock { $0.server = newValue } }
    }
}
