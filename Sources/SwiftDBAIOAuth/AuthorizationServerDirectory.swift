import Foundation
import Logging

/// What the resource server knows of its authorization server, fetched on demand and kept:
/// the metadata (RFC 8414, or OpenID Connect discovery), and the key set (`jwks_uri`).
///
/// - The key set is used for ``OAuthResourceSettings/keySetLifetime``; an older set still
///   answers at once while a fresh one is fetched behind it.
/// - A token naming a key the set does not hold (a rotation, or a forgery) makes it fetch the set
///   again, at most once per ``OAuthResourceSettings/keyRefetchInterval``; others within the
///   interval are answered from the set as it is.
/// - After a failed fetch (metadata or keys), nothing is fetched again within the interval: the
///   tokens that need it are answered `.unavailable` at once.
///
/// Concurrent callers that need the same fetch wait for one. Times come from the verifier's
/// clock (seconds), so that tests can move it.
actor AuthorizationServerDirectory {
    struct Metadata: Sendable {
        let jwksURI: String
        let introspectionEndpoint: String?
    }

    private let settings: OAuthResourceSettings
    private let fetcher: any OAuthHTTPFetching
    private let logger: Logger
    private let now: @Sendable () -> Double

    private var metadata: Metadata?
    private var metadataFetch: Task<Metadata, any Error>?
    private var metadataFailure: (at: Double, refusal: AccessTokenRefusal)?

    private var keys: [VerificationKey] = []
    private var keysFetchedAt: Double?
    private var keysFetch: Task<[VerificationKey], any Error>?
    private var keysFailure: (at: Double, refusal: AccessTokenRefusal)?
    /// When a token with a key the set did not hold last made the server fetch it.
    private var lastUnknownKeyFetch: Double?

    init(settings: OAuthResourceSettings, fetcher: any OAuthHTTPFetching, logger: Logger, now: @escaping @Sendable () -> Double) {
        self.settings = settings
        self.fetcher = fetcher
        self.logger = logger
        self.now = now
    }

    private var interval: Double { Self.seconds(settings.keyRefetchInterval) }

    /// The oldest key set still used while a new one cannot be fetched (seconds): a day.
    static let maximumKeySetAge: Double = 86_400

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    // MARK: - Metadata

    /// The metadata, discovered once (a failed discovery is tried again after the interval).
    func serverMetadata() async throws(AccessTokenRefusal) -> Metadata {
        if let metadata { return metadata }
        if metadataFetch == nil, let failure = metadataFailure, now() - failure.at < interval { throw failure.refusal }
        let task = metadataFetch ?? Task { try await self.discover() }
        metadataFetch = task
        do {
            let found = try await task.value
            metadata = found
            if metadataFetch == task { metadataFetch = nil }
            return found
        } catch {
            let refusal = Self.refusal(error)
            if metadataFetch == task {
                metadataFetch = nil
                metadataFailure = (now(), refusal)
            }
            throw refusal
        }
    }

    // MARK: - Keys

    /// Fetches the metadata and the key set ahead of the first token.
    func prefetch() async throws(AccessTokenRefusal) {
        _ = try await serverMetadata()
        guard keysFetchedAt == nil else { return }
        try await settle(keysFetch ?? startKeysFetch())
    }

    /// The keys that may have signed a token with this `kid` and `alg`.
    ///
    /// - Throws: `.unavailable` when the set is needed and cannot be fetched.
    func candidateKeys(kid: String?, algorithm: SignatureAlgorithm) async throws(AccessTokenRefusal) -> [VerificationKey] {
        let time = now()
        let age = keysFetchedAt.map { time - $0 }
        let isFresh = age.map { $0 < Self.seconds(settings.keySetLifetime) } ?? false
        // A set older than a day is not trusted, however long the authorization server is down:
        // a key it retired meanwhile must not verify forever.
        let found = age.map { $0 < Self.maximumKeySetAge } ?? false ? Self.matching(keys, kid: kid, algorithm: algorithm) : []
        if !found.isEmpty {
            if !isFresh, keysFetch == nil, !recentlyFailed(at: time) {
                // An old set answers now; a fresh one is fetched behind it.
                let task = startKeysFetch()
                Task { try? await self.settle(task) }
            }
            return found
        }
        if keysFetch == nil {
            if let failure = keysFailure, time - failure.at < interval { throw failure.refusal }
            if keysFetchedAt != nil {
                // A key the set does not hold: a rotation, or a forged kid.
                if let last = lastUnknownKeyFetch, time - last < interval { return [] }
                lastUnknownKeyFetch = time
            }
        }
        try await settle(keysFetch ?? startKeysFetch())
        return Self.matching(keys, kid: kid, algorithm: algorithm)
    }

    private func recentlyFailed(at time: Double) -> Bool {
        keysFailure.map { time - $0.at < interval } ?? false
    }

    private func startKeysFetch() -> Task<[VerificationKey], any Error> {
        let task = Task { try await self.fetchKeys() }
        keysFetch = task
        return task
    }

    /// Waits for a key-set fetch; the first waiter keeps its outcome.
    private func settle(_ task: Task<[VerificationKey], any Error>) async throws(AccessTokenRefusal) {
        do {
            let fetched = try await task.value
            if keysFetch == task {
                keys = fetched
                keysFetchedAt = now()
                keysFailure = nil
                keysFetch = nil
            }
        } catch {
            let refusal = Self.refusal(error)
            if keysFetch == task {
                keysFetch = nil
                keysFailure = (now(), refusal)
                logger.warning("OAuth: \(refusal)")
            }
            throw refusal
        }
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
            guard let document = try await getJSON(url) else {
                tried.append(url)
                continue
            }
            // RFC 8414 §3.3: the issuer in the document must be the one it was discovered from.
            guard document.string("issuer") == settings.issuer else {
                throw AccessTokenRefusal.unavailable(
                    "the metadata at \(url) names the issuer \(document.string("issuer") ?? "(none)"), not \(settings.issuer); check --oauth-issuer.")
            }
            guard let jwksURI = document.string("jwks_uri") else {
                throw AccessTokenRefusal.unavailable("the authorization server's metadata at \(url) has no jwks_uri.")
            }
            // Keys and tokens travel only over TLS (plain HTTP on loopback, for tests).
            for (name, endpoint) in [("jwks_uri", jwksURI), ("introspection_endpoint", document.string("introspection_endpoint"))] {
                if let endpoint, !OAuthURL.isSecure(endpoint) {
                    throw AccessTokenRefusal.unavailable("the authorization server's \(name) \(endpoint) is not https.")
                }
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

    // MARK: - Introspection

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
