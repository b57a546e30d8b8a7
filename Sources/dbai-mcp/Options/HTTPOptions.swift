import ArgumentParser
import Foundation
import SwiftDBAIMCP
import SwiftDBAIMCPHTTP

/// Streamable HTTP instead of stdio: where to listen, who may call, and how much.
struct HTTPOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Serve MCP Streamable HTTP at http://HOST:PORT/mcp instead of stdio (port 0 picks a free one; the log says which). An address beyond this machine needs --auth-token-env.",
        valueName: "host:port"), transform: { try HTTPListenAddress(parsing: $0) })
    var http: HTTPListenAddress?

    @Option(name: .customLong("auth-token-env"), help: ArgumentHelp(
        "With --http: the environment variable holding the secret every request must send as Authorization: Bearer <secret>.",
        valueName: "name"))
    var authTokenEnv: String?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp(
        "With --http: a browser origin (scheme://host[:port]) allowed besides this machine's; repeat for several.",
        valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(name: .customLong("max-sessions"), help: "With --http: the most sessions open at once.")
    var maxSessions: Int = HTTPServeOptions.defaultMaxSessions

    @Option(name: .customLong("session-idle-timeout"), help: ArgumentHelp(
        "With --http: close a session after this many seconds without a request.", valueName: "seconds"))
    var sessionIdleTimeoutSeconds: Int = Int(HTTPServeOptions.defaultSessionIdleTimeout.components.seconds)

    @Option(name: .customLong("max-request-bytes"), help: ArgumentHelp(
        "With --http: the largest request body accepted.", valueName: "bytes"))
    var maxRequestBytes: Int = HTTPServeOptions.defaultMaxRequestBytes

    func validate() throws {
        guard http == nil else { return }
        let httpOnly = [
            ("--auth-token-env", authTokenEnv != nil), ("--allow-origin", !allowOrigin.isEmpty),
            ("--max-sessions", maxSessions != HTTPServeOptions.defaultMaxSessions),
            ("--session-idle-timeout", sessionIdleTimeoutSeconds != Int(HTTPServeOptions.defaultSessionIdleTimeout.components.seconds)),
            ("--max-request-bytes", maxRequestBytes != HTTPServeOptions.defaultMaxRequestBytes),
        ]
        if let flag = httpOnly.first(where: \.1)?.0 {
            throw ValidationError("\(flag) applies to --http only: add --http HOST:PORT, or remove it.")
        }
    }

    /// The options of the HTTP server, the token read from its variable; nil over stdio.
    func serveOptions(environment: [String: String]) throws(HTTPServeError) -> HTTPServeOptions? {
        guard let http else { return nil }
        var token: String?
        if let name = authTokenEnv {
            token = environment[name]
            guard let token, !token.isEmpty else { throw .tokenVariableUnset(name) }
        }
        return try HTTPServeOptions(
            address: http, authToken: token, allowedOrigins: allowOrigin, maxSessions: maxSessions,
            sessionIdleTimeout: .seconds(sessionIdleTimeoutSeconds), maxRequestBytes: maxRequestBytes)
    }
}
