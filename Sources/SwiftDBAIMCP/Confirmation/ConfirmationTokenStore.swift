import Crypto
import Foundation

import SwiftDBAI

/// The confirmation tokens of one process, in memory (``ConfirmationLedger``): a token issued
/// for one DELETE cannot run another, nor the same one once its rows changed, nor be redeemed
/// by another process.
actor ConfirmationTokenStore: ConfirmationLedger {
    private struct Entry {
        let fingerprint: SHA256.Digest
        let signature: ChangeSignature?
        let expiry: ContinuousClock.Instant
    }

    /// How long a token stays valid.
    let lifetime: Duration
    /// The most tokens kept: beyond, the one closest to expiry is dropped (a store shared by
    /// stateless clients must not grow with what they ask).
    let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private var entries: [String: Entry] = [:]

    init(lifetime: Duration = .seconds(300), capacity: Int = 4_096, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        self.now = now
    }

    func issue(for fingerprint: String, signature: ChangeSignature? = nil) -> String {
        let current = now()
        entries = entries.filter { $0.value.expiry > current }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.expiry < $1.value.expiry })?.key {
            entries[oldest] = nil
        }
        let token = ConfirmationTokens.random()
        entries[token] = Entry(fingerprint: Self.digest(fingerprint), signature: signature, expiry: current.advanced(by: lifetime))
        return token
    }

    /// A fingerprint as kept: its SHA-256 (a write's statements can be long).
    private static func digest(_ fingerprint: String) -> SHA256.Digest {
        SHA256.hash(data: Data(fingerprint.utf8))
    }

    func redeem(_ token: String, for fingerprint: String) -> Result<ChangeSignature?, ConfirmationRefusal> {
        guard let entry = entries[token] else { return .failure(.unknown) }
        guard entry.expiry > now() else {
            entries[token] = nil
            return .failure(.expired)
        }
        guard entry.fingerprint == Self.digest(fingerprint) else { return .failure(.mismatch) }
        entries[token] = nil
        return .success(entry.signature)
    }
}
