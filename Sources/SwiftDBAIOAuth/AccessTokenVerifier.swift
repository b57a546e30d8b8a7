import Crypto
import Foundation
import Logging
import SwiftDBAIPrimitives

/// Verifies the bearer tokens of an OAuth 2.1 resource server (the MCP authorization
/// specification): JWT access tokens (RFC 9068) against the authorization server's keys, opaque
/// ones by introspection (RFC 7662) when a client for it is configured.
///
/// A JWT is accepted only when all of these hold:
/// - its header's `typ` is an accepted type (`at+jwt`), it has no `crit`, and its `alg` is one
///   the key it names verifies: the key decides the algorithm, never the token (`none`, and
///   `HS256` keyed with a public key, never verify);
/// - the signature verifies with a key of the issuer's key set (fetched again, rate-limited,
///   when the token names a key the cached set does not hold);
/// - `iss` is the issuer, `aud` contains the resource, `exp` and `nbf` hold (with leeway),
///   and it names its subject.
///
/// A verified token is remembered in memory until its expiry or
/// ``OAuthResourceSettings/verifiedTokenLifetime``, whichever comes first, so the next call
/// with it costs a dictionary lookup (the whole token compared, so no other token can match it);
/// an opaque token the authorization server refused is remembered as refused (by its SHA-256)
/// for ``OAuthResourceSettings/introspectionLifetime``, so that the same bearer again costs it no
/// request. Only tokens that verified, or that the authorization server was asked about, are
/// remembered: garbage bearers cannot fill the memory or push verified tokens out. The token is
/// never logged, written anywhere or passed on.
public final class AccessTokenVerifier: Sendable {
    public let settings: OAuthResourceSettings
    private let directory: AuthorizationServerDirectory
    private let claims: AccessTokenClaims
    private let verified = Mutex<[String: Remembered]>([:])
    private let refused = Mutex<[SHA256.Digest: Refused]>([:])
    private let now: @Sendable () -> Double

    private struct Remembered {
        let token: VerifiedAccessToken
        let until: Double
    }

    private struct Refused {
        let reason: String
        let until: Double
    }

    /// The longest token accepted (a JWT with a few hundred claims fits many times over).
    static let maximumTokenBytes = 16 << 10

    /// The most tokens remembered at once; beyond, the expired are dropped, then all.
    static let rememberedLimit = 4096

    /// A verifier for `settings`, asking the authorization server through `fetcher`.
    ///
    /// - Parameter now: The clock, in seconds since 1970 (tests set it).
    public init(
        settings: OAuthResourceSettings, fetcher: any OAuthHTTPFetching, logger: Logger = Logger(label: "dbai-mcp.oauth"),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.settings = settings
        directory = AuthorizationServerDirectory(settings: settings, fetcher: fetcher, logger: logger, now: now)
        claims = AccessTokenClaims(settings: settings)
        self.now = now
    }

    /// Fetches the authorization server's metadata and keys ahead of the first token, so that
    /// a misconfigured issuer shows at start-up (the caller logs the error; a later token
    /// tries again).
    ///
    /// - Throws: `.unavailable` naming what could not be fetched.
    public func prepare() async throws(AccessTokenRefusal) {
        try await directory.prefetch()
    }

    /// The bearer of `token`.
    ///
    /// - Throws: ``AccessTokenRefusal``: `.invalid` for a token that is not accepted (401),
    ///   `.unavailable` when the authorization server cannot be asked (503).
    public func verify(_ token: String) async throws(AccessTokenRefusal) -> VerifiedAccessToken {
        guard token.utf8.count <= Self.maximumTokenBytes else {
            throw .invalid("the token is longer than \(Self.maximumTokenBytes) bytes.")
        }
        let time = now()
        if let known = verified.withLock({ $0[token] }), time < known.until {
            return known.token
        }
        if let jwt = CompactJWT(token) {
            let accepted = try await verify(jwt, now: time)
            remember(token, accepted, until: min(accepted.expiresAt, time + Self.seconds(settings.verifiedTokenLifetime)))
            return accepted
        }
        guard let client = settings.introspectionClient else {
            throw .invalid("the token is not a JWT access token (this server does not introspect opaque tokens).")
        }
        let digest = SHA256.hash(data: Data(token.utf8))
        if let known = refused.withLock({ $0[digest] }), time < known.until { throw .invalid(known.reason) }
        let lifetime = Self.seconds(settings.introspectionLifetime)
        let answer = try await directory.introspect(token, client: client)
        do throws(AccessTokenRefusal) {
            guard answer.bool("active") == true else { throw .invalid("the authorization server says the token is not active.") }
            let accepted = try claims.check(answer, now: time, requireIssuer: false)
            remember(token, accepted, until: min(accepted.expiresAt, time + lifetime))
            return accepted
        } catch {
            // The authorization server was asked and said no: the same bearer again is refused
            // without asking.
            Self.bounded(refused, adding: digest, Refused(reason: error.description, until: time + lifetime), now: time, until: \.until)
            throw error
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        AuthorizationServerDirectory.seconds(duration)
    }

    private func verify(_ jwt: CompactJWT, now: Double) async throws(AccessTokenRefusal) -> VerifiedAccessToken {
        let type = jwt.header.string("typ").map(Self.mediaType) ?? ""
        guard settings.acceptedTokenTypes.contains(type) else {
            throw .invalid("the token's type (typ \"\(Self.shown(jwt.header.string("typ") ?? ""))\") is not an access token's (at+jwt, RFC 9068).")
        }
        guard !jwt.header.has("crit") else { throw .invalid("the token has critical header parameters this server does not understand.") }
        guard let name = jwt.header.string("alg"), let algorithm = SignatureAlgorithm(header: name) else {
            throw .invalid("the token's signature algorithm (\(Self.shown(jwt.header.string("alg") ?? "none"))) is not accepted; accepted: RS256, ES256, EdDSA and their family.")
        }
        let kid = jwt.header.string("kid")
        let keys = try await directory.candidateKeys(kid: kid, algorithm: algorithm)
        guard !keys.isEmpty else {
            throw .invalid("the token was signed with a key the authorization server does not publish (kid \(Self.shown(kid ?? "none")), \(name)).")
        }
        guard keys.contains(where: { $0.verifies(jwt.signature, of: jwt.signingInput, algorithm: algorithm) }) else {
            throw .invalid("the token's signature does not verify.")
        }
        return try claims.check(jwt.claims, now: now, requireIssuer: true)
    }

    private func remember(_ token: String, _ accepted: VerifiedAccessToken, until: Double) {
        Self.bounded(verified, adding: token, Remembered(token: accepted, until: until), now: now(), until: \.until)
    }

    /// Adds an entry to a map of at most ``rememberedLimit`` entries: when full, the expired go
    /// first, then a quarter of the rest.
    private static func bounded<Key: Hashable, Entry>(
        _ map: Mutex<[Key: Entry]>, adding key: Key, _ entry: Entry, now: Double, until: KeyPath<Entry, Double>
    ) {
        map.withLock { entries in
            if entries.count >= rememberedLimit {
                entries = entries.filter { $0.value[keyPath: until] > now }
                if entries.count >= rememberedLimit {
                    for key in entries.keys.prefix(rememberedLimit / 4) { entries[key] = nil }
                }
            }
            entries[key] = entry
        }
    }

    /// A header value as a message shows it: printable ASCII, at most 64 characters.
    static func shown(_ text: String) -> String {
        String(text.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }.map(Character.init).prefix(64))
    }

    /// `typ` compared as a media type: lowercased, without `application/` (RFC 7515 §4.1.9).
    public static func mediaType(_ typ: String) -> String {
        let lowered = typ.lowercased()
        return lowered.hasPrefix("application/") ? String(lowered.dropFirst("application/".count)) : lowered
    }
}
