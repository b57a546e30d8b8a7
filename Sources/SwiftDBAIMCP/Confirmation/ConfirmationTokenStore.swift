import Foundation

/// Single-use, expiring confirmation tokens, each bound to one exact write (its tool, statements
/// and parameter values): a token issued for one DELETE cannot run another.
actor ConfirmationTokenStore {
    /// Why a token was not accepted.
    enum Refusal: Error, Sendable {
        /// Never issued, or already used.
        case unknown
        /// Issued too long ago.
        case expired
        /// Issued for different statements or parameters.
        case mismatch
    }

    private struct Entry {
        let fingerprint: String
        let expiry: ContinuousClock.Instant
    }

    /// How long a token stays valid.
    let lifetime: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private var entries: [String: Entry] = [:]

    init(lifetime: Duration = .seconds(300), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.lifetime = lifetime
        self.now = now
    }

    /// A new token for the write identified by `fingerprint`.
    func issue(for fingerprint: String) -> String {
        let current = now()
        entries = entries.filter { $0.value.expiry > current }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
        entries[token] = Entry(fingerprint: fingerprint, expiry: current.advanced(by: lifetime))
        return token
    }

    /// Accepts the token for this write and uses it up, or says why not. A mismatched token stays
    /// valid for the write it was issued for.
    func redeem(_ token: String, for fingerprint: String) -> Result<Void, Refusal> {
        guard let entry = entries[token] else { return .failure(.unknown) }
        guard entry.expiry > now() else {
            entries[token] = nil
            return .failure(.expired)
        }
        guard entry.fingerprint == fingerprint else { return .failure(.mismatch) }
        entries[token] = nil
        return .success(())
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
