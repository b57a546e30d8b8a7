import Foundation
import SwiftDBAIPrimitives

/// The URLs of OAuth discovery, derived from an issuer or a resource identifier.
public enum OAuthURL {
    /// The well-known URLs of an issuer's metadata, in the order MCP clients try them:
    /// RFC 8414 (`/.well-known/oauth-authorization-server` inserted before the issuer's path),
    /// then OpenID Connect discovery with the path inserted, then appended.
    public static func metadataCandidates(issuer: String) -> [String] {
        let (origin, path) = split(issuer)
        if path.isEmpty {
            return [origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"]
        }
        return [
            origin + "/.well-known/oauth-authorization-server" + path,
            origin + "/.well-known/openid-configuration" + path,
            origin + path + "/.well-known/openid-configuration",
        ]
    }

    /// The path of the Protected Resource Metadata of `resource` (RFC 9728 §3.1): the
    /// well-known prefix inserted before the resource's path (`/.well-known/oauth-protected-resource/mcp`).
    public static func protectedResourceMetadataPath(resource: String) -> String {
        "/.well-known/oauth-protected-resource" + split(resource).path
    }

    /// The absolute URL of the Protected Resource Metadata of `resource`.
    public static func protectedResourceMetadata(resource: String) -> String {
        split(resource).origin + protectedResourceMetadataPath(resource: resource)
    }

    /// `scheme://authority` and the path (no trailing slash; empty for the root).
    static func split(_ url: String) -> (origin: String, path: String) {
        guard let schemeEnd = url.range(of: "://") else { return (url, "") }
        let afterScheme = url[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        var path = String(afterScheme[pathStart...])
        while path.hasSuffix("/") { path.removeLast() }
        return (String(url[..<pathStart]), path)
    }

    /// True for an absolute `https` URL, or plain `http` on a loopback host (local tests).
    static func isSecure(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return false }
        switch components.scheme?.lowercased() {
        case "https": return true
        case "http": return LoopbackHost.contains(host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
        default: return false
        }
    }
}
