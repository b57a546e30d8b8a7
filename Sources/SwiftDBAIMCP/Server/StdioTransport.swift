import SwiftDBAIMCPKernel

/// The stdio transport of `dbai-mcp`, for ``DBAIServer/run(transport:shutdownSignals:)``: the
/// protocol kernel's, published with the server.
public typealias FastStdioTransport = SwiftDBAIMCPKernel.FastStdioTransport

/// An error of ``FastStdioTransport``.
public typealias StdioTransportError = SwiftDBAIMCPKernel.StdioTransportError
