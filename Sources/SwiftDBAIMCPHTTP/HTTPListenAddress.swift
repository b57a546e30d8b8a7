import SwiftDBAIPrimitives
/// Where `--http HOST:PORT` listens: `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`,
/// `0.0.0.0:8080`. Port 0 picks a free port (the log says which).
public struct HTTPListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host or address to bind, without brackets.
    public let host: String
    /// The TCP port; 0 for any free one.
    public let port: Int

    /// Parses `HOST:PORT`, an IPv6 address in brackets.
    ///
    /// - Throws: ``HTTPServeError/invalidAddress(_:reason:)``.
    public init(parsing text: String) throws(HTTPServeError) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else {
                throw .invalidAddress(text, reason: "write an IPv6 address as [::1]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw .invalidAddress(text, reason: "give HOST:PORT, for example 127.0.0.1:8080")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else {
                throw .invalidAddress(text, reason: "write an IPv6 address in brackets, as [::1]:PORT")
            }
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw .invalidAddress(text, reason: "the host is missing; give 127.0.0.1 to listen on this machine only")
        }
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw .invalidAddress(text, reason: "the port must be a number from 0 to 65535")
        }
        self.host = String(host)
        self.port = port
    }

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// True for `localhost`, 127.0.0.0/8 and `::1`: only this machine can connect.
    public var isLoopback: Bool {
        LoopbackHost.contains(host)
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
