import Foundation
import SwiftDBAI
import SwiftDBAIPrimitives

/// Where a server keeps the confirmation tokens it issued: each single-use, expiring, bound to
/// one exact write (a fingerprint of its tool, statements and values) and to the rows its
/// preview showed (a ``ChangeSignature``).
///
/// Two ledgers: ``ConfirmationTokenStore`` in the process's memory (one server, and every
/// 2025-11-25 session), and ``SharedConfirmationLedger`` in `--state-dir`, which every replica
/// of a server started with the same `--state-secret-file` and `--state-dir` reads and writes,
/// so that a token issued by one is redeemed by another, once.
protocol ConfirmationLedger: Sendable {
    /// How long a token stays valid.
    var lifetime: Duration { get }

    /// A new token for the write identified by `fingerprint`, whose preview had `signature`.
    ///
    /// - Throws: ``ConfirmationLedgerUnavailable`` when a shared ledger cannot be written.
    func issue(for fingerprint: String, signature: ChangeSignature?) async throws(ConfirmationLedgerUnavailable) -> String

    /// Accepts the token for this write and uses it up (in every replica), returning the
    /// signature of its preview, or says why not. A mismatched token stays valid for the write it
    /// was issued for.
    ///
    /// - Throws: ``ConfirmationLedgerUnavailable`` when a shared ledger cannot be written:
    ///   nothing was redeemed.
    func redeem(_ token: String, for fingerprint: String) async throws(ConfirmationLedgerUnavailable)
        -> Result<ChangeSignature?, ConfirmationRefusal>
}

/// Why a confirmation token was not accepted.
enum ConfirmationRefusal: Error, Sendable {
    /// Never issued, or already used.
    case unknown
    /// Issued too long ago.
    case expired
    /// Issued for different statements or parameters.
    case mismatch
}

/// A shared ledger could not be read or written (its disk, its lock held too long): the
/// confirmation was neither issued nor redeemed, and nothing ran.
struct ConfirmationLedgerUnavailable: Error, Sendable, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String {
        "The confirmation ledger \(path) could not be used (\(reason)); nothing was changed. Try again; if it persists, check --state-dir."
    }
}

/// The confirmation tokens both ledgers issue.
enum ConfirmationTokens {
    /// A new token: 128 random bits, 32 lowercase hexadecimal digits.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hexadecimal.string((0..<16).map { _ in generator.next() as UInt8 })
    }
}
