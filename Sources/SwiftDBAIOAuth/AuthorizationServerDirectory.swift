import Foundation
import Logging

/// What the resource server knows of its authorization server, fetched on demand and kept:
/// the metadata (RFC 8414, or OpenID Connect discovery), and the key set (`jwks_uri`), fetched
/// again when it is old, or when a token names a key it does not hold (key rotation) and the
/// last fetch is at least ``OAuthResourceSettings/keyRefetchInterval`` old.
///
/// Concurrent callers that need the same fetch wait for one.
actor AuthorizationServerDirectory {
    struct Metadata: Sendable {
        let jwksURI: String
        let introspectionEndpoint: String?
    }

    private let settings: OAuthResourceSettings
    private let fetcher: any OAuthHTTPFetching
    private let logger: Logger
    private let clock = ContinuousClock()

    private var metadata: Metadata?
    private var metadataFetch: Task<Metadata, any Error>?
    private var keys: [VerificationKey] = []
    private var keysFetchedAt: ContinuousClock.Instant?
    private var keysFetch: Task<[VerificationKey], any Error>?
    /// When a token with a key the set did not hold last made the server fetch it.
    private var lastUnknownKeyFetch: ContinuousClock.Instant?

    init(settings: OAuthResourceSettings, fetcher: any OAuthHTTPFetching, logger: Logger) {
        self.settings = settings
        self.fetcher = fetcher
        self.logger = logger
    }

    /// The metadata, fetched once (a failed discovery is tried again by the next caller).
    func serverMetadata() async throws(AccessTokenRefusal) -> Metadata {
        if let metadata { return metadata }
        let task = metadataFetch ?? Task { try await self.discover() }
        metadataFetch = task
        do {
            let found = try await task.value
            metadata = found
            return found
        } catch {
            metadataFetch = nil
            throw Self.refusal(error)
        }
    }

    /// The keys that may have signed a token with this `kid` and `alg`: the cached set's, and,
    /// when none fits, the set fetched again, at most once per refetch interval (a fetch already
    /// under way is joined, so tokens of a new key arriving together all wait for it).
    func candidateKeys(kid: String?, algorithm: SignatureAlgorithm) async throws(AccessTokenRefusal) -> [VerificationKey] {
        let now = clock.now
        let stale = keysFetchedAt.map { $0.duration(to: now) > settings.keySetLifetime } ?? true
        if !stale, keysFetch == nil {
            let found = Self.matching(keys, kid: kid, algorithm: algorithm)
            if !found.isEmpty { return found }
            // A key the set does not hold: rotation, or a forged kid.
            if let last = lastUnknownKeyFetch, last.duration(to: now) < settings.keyRefetchInterval { return [] }
            lastUnknownKeyFetch = now
        }
        let task = keysFetch ?? Task { try await self.fetchKeys() }
        keysFetch = task
        do {
            let fetched = try await task.value
            if keysFetch == task {
                keys = fetched
                keysFetchedAt = clock.now
                keysFetch = nil
            }
        } catch {
            if keysFetch == task { keysFetch = nil }
            // The key set cannot be fetched: a stale set is still better than none.
            keysFetchedAt = keysFetchedAt ?? clock.now
            let found = Self.matching(keys, kid: kid, algorithm: algorithm)
            if !found.isEmpty { return found }
            throw Self.refusal(error)
        }
        return Self.matching(keys, kid: kid, algorithm: algorithm)
    }

    private static func matching(_ keys: [VerificationKey], kid: String?, algorithm: SignatureAlgorithm) -> [VerificationKey] {
        keys.filter { key in
            (kid == nil || key.id == kid) && key.algorithms.contains(algorithm)
        }
    }

    private static func refusal(_ error: any Error) -> AccessTokenRefusal {
        (error as? AccessTokenRefusal) ?? .unavailable("the authorization server could not be reached (\(error)).")
    }

    // MARK: - Fetching

    private func discover() async throws -> Metadata {
        var tried: [String] = []
        for url in OAuthURL.metadataCandidates(issuer: settings.issuer) {
            let document: JSONObject
            do {
                guard let found = try await getJSON(url) else {
                    tried.append(url)
                    continue
                }
                document = found
            }
            // RFC 8414 §3.3: the issuer in the document must be the one it was discovered from.
            guard document.string("issuer") == settings.issuer else {
                throw AccessTokenRefusal.unavailable(
                    "the metadata at \(url) names the issuer \(document.string("issuer") ?? "(none)"), not \(settings.issuer); check --oauth-issuer.")
            }
            guard let jwksURI = document.string("jwks_uri") else {
                throw AccessTokenRefusal.unavailable("the authorization server's metadata at \(url) has no jwks_uri.")
            }
            logger.info("OAuth: the metadata of \(settings.issuer) came from \(url)")
            return Metadata(jwksURI: jwksURI, introspectionEndpoint: document.string("introspection_endpoint"))
        }
        throw AccessTokenRefusal.unavailable(
            "no authorization server metadata was found for \(settings.issuer) (tried \(tried.joined(separator: ", "))).")
    }

    private func fetchKeys() async throws -> [VerificationKey] {
        let uri = try await serverMetadata().jwksURI
        guard let document = try await getJSON(uri), let entries = document.objects("keys") else {
            throw AccessTokenRefusal.unavailable("the key set at \(uri) is not a JWK set.")
        }
        let keys = entries.compactMap(VerificationKey.init(jwk:))
        logger.info("OAuth: fetched \(keys.count) signing key(s) of \(entries.count) from \(uri)")
        return keys
    }

    /// The JSON object at `url`; nil for 404 (and 405/410, not served there).
    private func getJSON(_ url: String) async throws -> JSONObject? {
        let response = try await fetcher.fetch(OAuthHTTPRequest(url: url, headers: ["Accept": "application/json"]))
        if [404, 405, 410].contains(response.status) { return nil }
        guard response.status == 200 else {
            throw AccessTokenRefusal.unavailable("\(url) answered HTTP \(response.status).")
        }
        guard let object = JSONObject(response.body) else {
            throw AccessTokenRefusal.unavailable("\(url) did not answer a JSON object.")
        }
        return object
    }

    /// Asks the introspection endpoint about an opaque token (RFC 7662), as `client`.
    func introspect(_ token: String, client: ClientCredentials) async throws(AccessTokenRefusal) -> JSONObject {
        guard let endpoint = try await serverMetadata().introspectionEndpoint else {
            throw .invalid("the token is not a JWT, and the authorization server offers no introspection endpoint.")
        }
        let form = "token=" + Self.formEncoded(token) + "&token_type_hint=access_token"
        let basic = Data((Self.formEncoded(client.id) + ":" + Self.formEncoded(client.secret)).utf8).base64EncodedString()
        let request = OAuthHTTPRequest(
            url: endpoint, method: "POST",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json", "Authorization": "Basic " + basic],
            body: Data(form.utf8))
        let response: OAuthHTTPResponse
        do {
            response = try await fetcher.fetch(request)
        } catch {
            throw Self.refusal(error)
        }
        guard response.status == 200, let answer = JSONObject(response.body) else {
            throw .unavailable("the introspection endpoint answered HTTP \(response.status); check the introspection client's credentials.")
        }
        return answer
    }

    /// `application/x-www-form-urlencoded` of a value (RFC 6749 §2.3.1 for client credentials).
    static func formEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "").replacingOccurrences(of: "%20", with: "+")
    }
}
