import Crypto
import CryptoExtras
import Foundation
import Testing
import SwiftDBAIOAuth
import SwiftDBAIOAuthTestSupport
import SwiftDBAIPrimitives

/// The resource server's checks of access tokens, against a scripted authorization server whose
/// keys the tests hold (the real one, from PyPI, is in the end-to-end suite).
@Suite struct AccessTokenVerifierTests {
    static let resource = "https://db.example.com/mcp"
    static let now = 1_800_000_000.0

    let rsa: TestSigningKey
    let server: ScriptedAuthorizationServer

    init() throws {
        rsa = try TestSigningKey.rsa("rsa-1")
        server = ScriptedAuthorizationServer(keys: [rsa, .p256("ec-1"), .ed25519("ed-1")])
    }

    func verifier(
        issuer: String? = nil, introspection: Bool = false, clock: Mutex<Double> = Mutex(now),
        configure: (inout OAuthResourceSettings) -> Void = { _ in }
    ) throws -> AccessTokenVerifier {
        var settings = try OAuthResourceSettings(issuer: issuer ?? server.issuer, resource: Self.resource)
        if introspection { settings.introspectionClient = ClientCredentials(id: "dbai-rs", secret: "rs-secret") }
        configure(&settings)
        return AccessTokenVerifier(settings: settings, fetcher: server, now: { clock.withLock { $0 } })
    }

    func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": server.issuer, "sub": "alice", "aud": Self.resource, "client_id": "cli", "scope": "dbai:read dbai:write",
            "exp": Self.now + 300, "iat": Self.now - 10, "nbf": Self.now - 10, "jti": UUID().uuidString,
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func token(_ key: TestSigningKey, header: [String: Any?] = [:], claims changes: [String: Any?] = [:]) throws -> String {
        var fields: [String: Any] = ["alg": key.algorithm, "typ": "at+jwt", "kid": key.kid]
        for (name, value) in header { fields[name] = value }
        return try TestToken.make(header: fields, claims: claims(changes), key: key)
    }

    func refusal(_ verifier: AccessTokenVerifier, _ token: String) async -> AccessTokenRefusal? {
        do {
            _ = try await verifier.verify(token)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Accepted

    @Test(arguments: ["rsa-1", "ec-1", "ed-1"])
    func tokensOfEachAlgorithmAreAccepted(kid: String) async throws {
        let key = try #require(server.key(kid))
        let accepted = try await verifier().verify(try token(key))
        #expect(accepted.subject == "alice")
        #expect(accepted.clientID == "cli")
        #expect(accepted.scopes == ["dbai:read", "dbai:write"])
        #expect(accepted.issuer == server.issuer)
    }

    @Test func anAudienceListContainingTheResourceIsAccepted() async throws {
        let accepted = try await verifier().verify(try token(rsa, claims: ["aud": ["https://other.example.com", Self.resource + "/"]]))
        #expect(accepted.subject == "alice")
    }

    @Test func scpListsAreReadAsScopes() async throws {
        let accepted = try await verifier().verify(try token(rsa, claims: ["scope": nil, "scp": ["dbai:read", "dbai:delete"]]))
        #expect(accepted.scopes == ["dbai:read", "dbai:delete"])
    }

    @Test func aVerifiedTokenIsRememberedButNotPastItsExpiry() async throws {
        let clock = Mutex(Self.now)
        let verifier = try verifier(clock: clock)
        let token = try token(rsa, claims: ["exp": Self.now + 100])
        _ = try await verifier.verify(token)
        clock.withLock { $0 = Self.now + 200 }
        #expect(await refusal(verifier, token) == .invalid("the token has expired; refresh it or sign in again."))
    }

    @Test func introspectionAnswersAreRememberedForThirtySecondsRefusalsToo() async throws {
        let clock = Mutex(Self.now)
        let verifier = try verifier(introspection: true, clock: clock)
        server.addOpaque("opaque-good", claims: claims(["iss": nil, "exp": Self.now + 3600]))
        for _ in 0..<3 {
            #expect(try await verifier.verify("opaque-good").subject == "alice")
            #expect(await refusal(verifier, "random-bearer")?.isInvalid == true)
        }
        #expect(server.count("/introspect") == 2)
        clock.withLock { $0 = Self.now + 31 }
        #expect(try await verifier.verify("opaque-good").subject == "alice")
        #expect(await refusal(verifier, "random-bearer")?.isInvalid == true)
        #expect(server.count("/introspect") == 4)
    }

    // MARK: - Forged and misdirected tokens

    @Test func forgedTokensAreRefused() async throws {
        let verifier = try verifier()
        let good = try token(rsa)
        let parts = good.split(separator: ".").map(String.init)
        // alg none, with and without a signature.
        let none = try TestToken.encode(["alg": "none", "typ": "at+jwt", "kid": "rsa-1"]) + "." + parts[1] + "."
        #expect(await refusal(verifier, none)?.isInvalid == true)
        // HS256 keyed with the public key's bytes (the classic algorithm confusion).
        let jwk = rsa.jwk
        let hsHeader = try TestToken.encode(["alg": "HS256", "typ": "at+jwt", "kid": "rsa-1"])
        let input = hsHeader + "." + parts[1]
        let secret = SymmetricKey(data: try JSONSerialization.data(withJSONObject: jwk, options: [.sortedKeys]))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)
        #expect(await refusal(verifier, input + "." + Base64URL.encoded(Data(mac)))?.isInvalid == true)
        // A changed payload under the original signature.
        let altered = parts[0] + "." + (try TestToken.encode(claims(["scope": "dbai:read dbai:write dbai:delete dbai:unmask"]))) + "." + parts[2]
        #expect(await refusal(verifier, altered) == .invalid("the token's signature does not verify."))
        // Signed by a key the authorization server does not publish, under a published kid.
        let stranger = try token(TestSigningKey.rsa("rsa-1"))
        #expect(await refusal(verifier, stranger) == .invalid("the token's signature does not verify."))
    }

    @Test func theKeyDecidesTheAlgorithm() async throws {
        let verifier = try verifier()
        // An RSA key whose JWK says RS256 does not verify PS256, even with a good PS256 signature.
        let header = try TestToken.encode(["alg": "PS256", "typ": "at+jwt", "kid": "rsa-1"])
        let input = header + "." + (try TestToken.encode(claims()))
        guard case .rsa(let key) = rsa.material else { return }
        let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .PSS).rawRepresentation
        #expect(await refusal(verifier, input + "." + Base64URL.encoded(signature))?.isInvalid == true)
        // An EC key named by a token claiming RS256.
        let ec = try #require(server.key("ec-1"))
        let lying = try TestToken.make(header: ["alg": "RS256", "typ": "at+jwt", "kid": "ec-1"], claims: claims(), key: ec)
        #expect(await refusal(verifier, lying)?.isInvalid == true)
    }

    @Test func wrongTypesAndCriticalHeadersAreRefused() async throws {
        let verifier = try verifier()
        #expect(await refusal(verifier, try token(rsa, header: ["typ": "JWT"]))?.isInvalid == true)
        #expect(await refusal(verifier, try token(rsa, header: ["typ": nil]))?.isInvalid == true)
        #expect(await refusal(verifier, try token(rsa, header: ["crit": ["exp"]]))?.isInvalid == true)
        #expect(try await verifier.verify(try token(rsa, header: ["typ": "application/AT+JWT"])).subject == "alice")
        let lenient = try self.verifier { $0.acceptedTokenTypes.insert("jwt") }
        #expect(try await lenient.verify(try token(rsa, header: ["typ": "JWT"])).subject == "alice")
    }

    @Test func claimsOutsideTheirBoundsAreRefused() async throws {
        let verifier = try verifier()
        let cases: [[String: Any?]] = [
            ["exp": Self.now - 61], ["exp": nil], ["exp": "tomorrow"], ["nbf": Self.now + 61], ["iat": Self.now + 3600],
            ["aud": "https://other.example.com/mcp"], ["aud": nil], ["aud": ["https://other.example.com"]],
            ["iss": "https://evil.example.com"], ["iss": nil], ["sub": nil], ["sub": ""],
        ]
        for change in cases {
            #expect(await refusal(verifier, try token(rsa, claims: change))?.isInvalid == true, "\(change)")
        }
        // Within the leeway.
        #expect(try await verifier.verify(try token(rsa, claims: ["exp": Self.now - 30, "nbf": Self.now + 30])).subject == "alice")
    }

    @Test func malformedTokensAreRefusedWithoutIntrospection() async throws {
        let verifier = try verifier()
        for token in ["", "abc", "a.b.c", "....", String(repeating: "x", count: 10_000)] {
            #expect(await refusal(verifier, token)?.isInvalid == true)
        }
        #expect(server.count("/introspect") == 0)
    }

    // MARK: - Keys and discovery

    @Test func anUnknownKeyFetchesTheSetAgainAtMostOncePerInterval() async throws {
        let clock = Mutex(Self.now)
        let verifier = try verifier(clock: clock)
        _ = try await verifier.verify(try token(rsa))
        #expect(server.count("/jwks") == 1)
        // Rotation: the server publishes a new key, the next token is signed with it.
        let rotated = try TestSigningKey.rsa("rsa-2")
        server.setKeys([rsa, rotated])
        #expect(try await verifier.verify(try token(rotated)).subject == "alice")
        #expect(server.count("/jwks") == 2)
        // Forged kids right after do not make the server fetch again.
        let forged = try TestSigningKey.p256("forged")
        for _ in 0..<5 {
            #expect(await refusal(verifier, try token(forged))?.isInvalid == true)
        }
        #expect(server.count("/jwks") == 2)
        // Ten seconds later, an unknown kid may make it fetch once more.
        clock.withLock { $0 = Self.now + 11 }
        #expect(await refusal(verifier, try token(forged))?.isInvalid == true)
        #expect(await refusal(verifier, try token(forged))?.isInvalid == true)
        #expect(server.count("/jwks") == 3)
    }

    @Test func whileTheAuthorizationServerIsDownEveryTokenIsUnavailableNotInvalid() async throws {
        let clock = Mutex(Self.now)
        server.setDiscovery(rfc8414: false, oidc: false)
        let verifier = try verifier(clock: clock)
        for _ in 0..<3 {
            #expect(await refusal(verifier, try token(rsa))?.isInvalid == false)
        }
        // Within the interval nothing is asked again.
        #expect(server.asked.count == 2)
        server.setDiscovery(rfc8414: true, oidc: true)
        clock.withLock { $0 = Self.now + 11 }
        #expect(try await verifier.verify(try token(rsa, claims: ["exp": Self.now + 300])).subject == "alice")
    }

    @Test func keysOrIntrospectionOverPlainHTTPAreRefused() async throws {
        server.jwksURIOverride = "http://auth.example.com/jwks"
        #expect(await refusal(try verifier(), try token(rsa))?.isInvalid == false)
    }

    @Test func discoveryFallsBackToOpenIDConnect() async throws {
        server.setDiscovery(rfc8414: false, oidc: true)
        _ = try await verifier().verify(try token(rsa))
        #expect(server.asked.first == server.issuer + "/.well-known/oauth-authorization-server")
        #expect(server.asked.contains(server.issuer + "/.well-known/openid-configuration"))
    }

    @Test func anIssuerWithAPathIsDiscoveredByInsertion() {
        #expect(OAuthURL.metadataCandidates(issuer: "https://auth.example.com/realms/team") == [
            "https://auth.example.com/.well-known/oauth-authorization-server/realms/team",
            "https://auth.example.com/.well-known/openid-configuration/realms/team",
            "https://auth.example.com/realms/team/.well-known/openid-configuration",
        ])
        #expect(OAuthURL.protectedResourceMetadata(resource: "https://db.example.com/mcp")
            == "https://db.example.com/.well-known/oauth-protected-resource/mcp")
        #expect(OAuthURL.protectedResourceMetadataPath(resource: "https://db.example.com") == "/.well-known/oauth-protected-resource")
    }

    @Test func metadataNamingAnotherIssuerMakesTheServerUnavailable() async throws {
        server.documentIssuer = "https://evil.example.com"
        let refusal = await refusal(try verifier(), try token(rsa))
        #expect(refusal?.isInvalid == false)
    }


    // MARK: - Introspection

    @Test func opaqueTokensAreIntrospected() async throws {
        let verifier = try verifier(introspection: true)
        server.addOpaque("opaque-good", claims: claims(["iss": nil]))
        server.addOpaque("opaque-elsewhere", claims: claims(["aud": "https://other.example.com"]))
        #expect(try await verifier.verify("opaque-good").subject == "alice")
        #expect(await refusal(verifier, "opaque-elsewhere")?.isInvalid == true)
        #expect(await refusal(verifier, "opaque-unknown") == .invalid("the authorization server says the token is not active."))
        // Without an introspection client, an opaque token is simply not accepted.
        #expect(await refusal(try self.verifier(), "opaque-good")?.isInvalid == true)
    }

    @Test func settingsRefusePlainHTTPOffLoopback() {
        #expect(throws: OAuthConfigurationError.self) { try OAuthResourceSettings(issuer: "http://auth.example.com", resource: Self.resource) }
        #expect(throws: OAuthConfigurationError.self) { try OAuthResourceSettings(issuer: "https://auth.example.com", resource: "https://db.example.com/mcp#x") }
        #expect(throws: OAuthConfigurationError.self) { try OAuthResourceSettings(issuer: "auth.example.com", resource: Self.resource) }
        #expect((try? OAuthResourceSettings(issuer: "http://127.0.0.1:9000", resource: "http://localhost:8080/mcp")) != nil)
        #expect(throws: OAuthConfigurationError.self) { try OAuthResourceSettings(issuer: "http://127.0.0.1.evil.com", resource: Self.resource) }
    }
}

extension AccessTokenRefusal {
    var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
}
