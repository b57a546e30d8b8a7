/// Which host names and addresses are this machine: what the HTTP server's DNS-rebinding and
/// Origin checks accept, and where the OAuth resource server allows plain `http`.
package enum LoopbackHost {
    /// True for a loopback host name or address (`localhost` and `*.localhost`, 127.0.0.0/8,
    /// `::1`), without brackets, in any ASCII case; nothing that only starts like one
    /// (`127.0.0.1.evil.com`).
    package static func contains(_ host: String) -> Bool {
        let name = String(decoding: host.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "0:0:0:0:0:0:0:1" {
            return true
        }
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { (0x30...0x39).contains($0) }
                && part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }) else { return false }
        return parts[0].elementsEqual("127".utf8)
    }
}
