import Crypto
import Foundation
import GRDB
import SwiftDBAI
import SwiftDBAIPrimitives

/// The confirmation ledger every replica shares: `confirmations.sqlite` in `--state-dir`, an
/// SQLite file of the server's own (``StateDirectoryFile``), used when the server is started
/// with `--state-secret-file`.
///
/// A token is a row: its database, a digest of its write, the signature of its preview, its
/// expiry, and when it was used. Redeeming checks and marks the row in one `IMMEDIATE`
/// transaction: SQLite's write lock lets one process at a time into it, so when two replicas
/// receive the same token at the same moment, the second finds it used — a confirmation runs
/// once across every process on the host. Rows are removed once expired (a used token is also
/// refused by its expiry after that, and a round trip's state carries the same expiry), and
/// beyond 4,096 per database (used ones first): a token no longer there is refused.
final class ConfirmationLedgerFile: Sendable {
    /// The file (`DIR/confirmations.sqlite`).
    let path: String
    private let queue: DatabaseQueue
    /// Tokens issued by this process: expired ones are removed every 256.
    private let issued = Mutex(0)
    /// The file opened (device and inode): another file put at the path is not the one written.
    private let identity: (device: UInt64, inode: UInt64)?

    /// The name of the file in the state directory.
    static let fileName = "confirmations.sqlite"
    /// The most tokens kept per database, used or not (as many as one process keeps in memory).
    let capacity: Int

    /// Opens (or creates) the ledger in `directory`.
    ///
    /// - Throws: ``DBAIServerConfigurationError/stateDirectory(_:reason:)``.
    init(directory: String, apartFrom databases: [String] = [], capacity: Int = 4_096) throws(DBAIServerConfigurationError) {
        self.capacity = max(1, capacity)
        (path, queue) = try StateDirectoryFile.open(
            Self.fileName, in: directory, keeping: "confirmations", apartFrom: databases, schema: """
                CREATE TABLE IF NOT EXISTS confirmation(
                    token TEXT NOT NULL, database TEXT NOT NULL, write TEXT NOT NULL, signature BLOB,
                    expires_at REAL NOT NULL, used_at REAL, PRIMARY KEY (token, database)) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS confirmation_expiry ON confirmation(expires_at);
                CREATE INDEX IF NOT EXISTS confirmation_database ON confirmation(database, expires_at);
                """)
        var status = stat()
        identity = stat(path, &status) == 0 ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
    }

    /// The ledger of one database's writes.
    func ledger(for database: String, lifetime: Duration = .seconds(300)) -> SharedConfirmationLedger {
        SharedConfirmationLedger(file: self, database: database, lifetime: lifetime)
    }

    /// Records a new token.
    func insert(
        token: String, database: String, write: String, signature: Data?, expiresAt: Date
    ) async throws(ConfirmationLedgerUnavailable) {
        let purges = issued.withLock { count in
            count += 1
            return count % 256 == 1
        }
        let capacity = capacity
        try await transaction { db in
            if purges {
                try db.execute(sql: "DELETE FROM confirmation WHERE expires_at <= ?", arguments: [Date().timeIntervalSince1970])
            }
            try db.execute(
                sql: "INSERT INTO confirmation(token, database, write, signature, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [token, database, write, signature, expiresAt.timeIntervalSince1970])
            // As many tokens as one process keeps in memory: beyond, used ones go first, then the
            // closest to expiry (clients that preview without end must not grow the file). A
            // token gone is refused, never run.
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM confirmation WHERE database = ?", arguments: [database]) ?? 0
            if count > capacity {
                try db.execute(
                    sql: """
                        DELETE FROM confirmation WHERE database = ?1 AND token IN (
                            SELECT token FROM confirmation WHERE database = ?1 ORDER BY used_at IS NULL, expires_at LIMIT ?2)
                        """,
                    arguments: [database, count - capacity])
            }
        }
    }

    /// Marks the token used when it is unused, unexpired and for this write; returns its
    /// signature, or why not. A signature that cannot be read leaves the token unused.
    func use(token: String, database: String, write: String, now: Date) async throws(ConfirmationLedgerUnavailable)
        -> Result<ChangeSignature?, ConfirmationRefusal> {
        try await transaction { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT write, signature, expires_at, used_at FROM confirmation WHERE token = ? AND database = ?",
                arguments: [token, database]),
                  (row["used_at"] as Double?) == nil, let expiry = row["expires_at"] as Double?, let issuedFor = row["write"] as String?
            else { return .failure(.unknown) }
            guard expiry > now.timeIntervalSince1970 else { return .failure(.expired) }
            guard issuedFor == write else { return .failure(.mismatch) }
            var signature: ChangeSignature?
            if let stored = row["signature"] as Data? {
                guard let decoded = try? JSONDecoder().decode(ChangeSignature.self, from: stored) else { throw UnreadableSignature() }
                signature = decoded
            }
            try db.execute(
                sql: "UPDATE confirmation SET used_at = ? WHERE token = ? AND database = ?",
                arguments: [now.timeIntervalSince1970, token, database])
            return .success(signature)
        }
    }

    /// A token's stored signature is not one this server wrote.
    private struct UnreadableSignature: Error {}

    /// Runs `body` in an `IMMEDIATE` transaction (the write lock taken first, so that no two
    /// processes read the same row before either marks it).
    private func transaction<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(ConfirmationLedgerUnavailable) -> T {
        do {
            return try await queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw DatabaseError(resultCode: .SQLITE_INTERNAL) }
                return result
            }
        } catch is UnreadableSignature {
            throw ConfirmationLedgerUnavailable(path: path, reason: "the token's preview signature could not be read")
        } catch {
            throw ConfirmationLedgerUnavailable(path: path, reason: StateDirectoryFile.reason(error))
        }
    }

    /// Why the ledger cannot be written now (for `/readyz`), examined without opening it: the
    /// file and its directory must be there and writable (SQLite writes its journal beside it).
    /// Nil when it can.
    func unwritableReason() -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return "the confirmation ledger \(path) cannot be examined (\(String(cString: strerror(errno))))"
        }
        guard status.st_mode & S_IFMT == S_IFREG, access(path, W_OK) == 0 else {
            return "the confirmation ledger \(path) is not a file the server can write"
        }
        if let identity, identity != (UInt64(status.st_dev), UInt64(status.st_ino)) {
            return "the confirmation ledger \(path) was replaced by another file since it was opened; restart the replica"
        }
        let directory = (path as NSString).deletingLastPathComponent
        guard access(directory, W_OK | X_OK) == 0 else {
            return "the directory of the confirmation ledger \(path) cannot be written"
        }
        return nil
    }

    /// Closes the file.
    func close() {
        try? queue.close()
    }
}

/// One database's tokens in the shared ledger (``ConfirmationLedgerFile``).
struct SharedConfirmationLedger: ConfirmationLedger {
    let file: ConfirmationLedgerFile
    let database: String
    let lifetime: Duration

    func issue(for fingerprint: String, signature: ChangeSignature?) async throws(ConfirmationLedgerUnavailable) -> String {
        let token = ConfirmationTokens.random()
        let stored: Data?
        do {
            stored = try signature.map { try JSONEncoder().encode($0) }
        } catch {
            throw ConfirmationLedgerUnavailable(path: file.path, reason: "the preview's signature could not be encoded")
        }
        try await file.insert(
            token: token, database: database, write: Self.digest(fingerprint), signature: stored,
            expiresAt: Date().addingTimeInterval(lifetime.seconds))
        return token
    }

    func redeem(_ token: String, for fingerprint: String) async throws(ConfirmationLedgerUnavailable)
        -> Result<ChangeSignature?, ConfirmationRefusal> {
        // Tokens are hex: anything else was never issued (and is not worth a lock).
        guard token.utf8.count == 32, token.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return .failure(.unknown)
        }
        return try await file.use(token: token, database: database, write: Self.digest(fingerprint), now: Date())
    }

    /// A fingerprint as kept: its SHA-256, hex.
    private static func digest(_ fingerprint: String) -> String {
        ConfirmationRoundTrip.digest(fingerprint)
    }
}
