import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

/// The ledger replicas share (`--state-secret-file` with `--state-dir`): each file instance here
/// is its own SQLite connection, as each replica's is, on one `confirmations.sqlite`.
@Suite("SharedConfirmationLedger: tokens issued by one replica are redeemed by another, once")
struct SharedConfirmationLedgerTests {
    static func directory() -> String {
        NSTemporaryDirectory() + "dbai-ledger-\(UUID().uuidString)"
    }

    static let signature = ChangeSignature(rowsAffected: 2, changedRowIDs: ["InvoiceLine": [1, 2]], contentDigest: Data(repeating: 7, count: 32))

    @Test("a token issued through one file is redeemed through another, with its signature, and only once")
    func acrossReplicas() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let a = try ConfirmationLedgerFile(directory: directory).ledger(for: "main")
        let b = try ConfirmationLedgerFile(directory: directory).ledger(for: "main")
        let token = try await a.issue(for: "delete 1", signature: Self.signature)
        guard case .success(let signature?) = try await b.redeem(token, for: "delete 1") else {
            Issue.record("the token must be redeemed on the other replica")
            return
        }
        #expect(signature == Self.signature && signature.digest == Self.signature.digest)
        guard case .failure(.unknown) = try await a.redeem(token, for: "delete 1") else {
            Issue.record("a used token must be refused everywhere")
            return
        }
    }

    @Test("a token for another write is refused and stays valid for its own; another database's is unknown")
    func mismatch() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try ConfirmationLedgerFile(directory: directory)
        let token = try await file.ledger(for: "main").issue(for: "delete 1", signature: nil)
        guard case .failure(.mismatch) = try await file.ledger(for: "main").redeem(token, for: "delete 2") else {
            Issue.record("another write must be refused")
            return
        }
        guard case .failure(.unknown) = try await file.ledger(for: "other").redeem(token, for: "delete 1") else {
            Issue.record("another database's token must be unknown")
            return
        }
        guard case .failure(.unknown) = try await file.ledger(for: "main").redeem("not a token'; --", for: "delete 1") else {
            Issue.record("a malformed token must be unknown")
            return
        }
        guard case .success(nil) = try await file.ledger(for: "main").redeem(token, for: "delete 1") else {
            Issue.record("the token must still confirm its own write")
            return
        }
    }

    @Test("an expired token is refused as expired")
    func expiry() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ledger = try ConfirmationLedgerFile(directory: directory).ledger(for: "main", lifetime: .milliseconds(10))
        let token = try await ledger.issue(for: "delete 1", signature: nil)
        try await Task.sleep(for: .milliseconds(50))
        guard case .failure(.expired) = try await ledger.redeem(token, for: "delete 1") else {
            Issue.record("an expired token must be refused")
            return
        }
    }

    @Test("one token redeemed at once through eight files succeeds exactly once", arguments: 1...3)
    func concurrentRedeem(round: Int) async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = try (0..<8).map { _ in try ConfirmationLedgerFile(directory: directory) }
        let token = try await files[0].ledger(for: "main").issue(for: "delete \(round)", signature: Self.signature)
        let successes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for file in files {
                group.addTask {
                    if case .success = try await file.ledger(for: "main").redeem(token, for: "delete \(round)") { return true }
                    return false
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
    }

    @Test("beyond its capacity the ledger drops the tokens closest to expiry: refused, never run")
    func capacity() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ledger = try ConfirmationLedgerFile(directory: directory, capacity: 3).ledger(for: "main")
        var tokens: [String] = []
        for index in 0..<5 { tokens.append(try await ledger.issue(for: "delete \(index)", signature: nil)) }
        for (index, token) in tokens.enumerated() {
            let outcome = try await ledger.redeem(token, for: "delete \(index)")
            if index < 2 {
                guard case .failure(.unknown) = outcome else { Issue.record("token \(index) must have been dropped"); continue }
            } else {
                #expect(outcome.isSuccess, "token \(index) is among the newest three")
            }
        }
    }

    @Test("another program's SQLite file in its place is refused at start")
    func foreignFile() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + ConfirmationLedgerFile.fileName
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE theirs(x)") }
        try queue.close()
        #expect(throws: DBAIServerConfigurationError.self) { try ConfirmationLedgerFile(directory: directory) }
    }
}

@Suite("StateSecret: the replicas' secret file is checked before anything is signed with it")
struct StateSecretTests {
    static func file(_ contents: String, mode: mode_t) throws -> String {
        let path = NSTemporaryDirectory() + "dbai-secret-\(UUID().uuidString)"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    @Test("a file only its owner reaches, with 32 bytes or more, is read without its trailing newline")
    func accepted() throws {
        let path = try Self.file(String(repeating: "k", count: 32) + "\n", mode: 0o600)
        defer { unlink(path) }
        #expect(try StateSecret(path: path).bytes == Data(String(repeating: "k", count: 32).utf8))
        chmod(path, 0o400)
        #expect(try StateSecret(path: path).bytes.count == 32)
    }

    @Test("a file others can reach, a short one, a missing one and a directory are refused with the reason",
          arguments: [(0o640, 40, "mode is 640"), (0o604, 40, "mode is 604"), (0o600, 31, "at least 32")])
    func refused(mode: Int, length: Int, reason: String) throws {
        let path = try Self.file(String(repeating: "k", count: length), mode: mode_t(mode))
        defer { unlink(path) }
        #expect { try StateSecret(path: path) } throws: { error in
            (error as? DBAIServerConfigurationError)?.description.contains(reason) == true
        }
        #expect(throws: DBAIServerConfigurationError.self) { try StateSecret(path: path + ".missing") }
        #expect(throws: DBAIServerConfigurationError.self) { try StateSecret(path: NSTemporaryDirectory()) }
    }

    @Test("a symbolic link to a good secret is followed; a file of another user is refused (checked as root)")
    func linkAndOwner() throws {
        let path = try Self.file(String(repeating: "k", count: 40), mode: 0o600)
        let link = path + ".link"
        defer { unlink(path); unlink(link) }
        #expect(symlink(path, link) == 0)
        #expect(try StateSecret(path: link).bytes.count == 40)
        guard geteuid() == 0 else { return }
        #expect(chown(path, 4_242, 4_242) == 0)
        #expect { try StateSecret(path: link) } throws: { error in
            (error as? DBAIServerConfigurationError)?.description.contains("belongs to user 4242") == true
        }
    }

    @Test("signers of one secret verify each other's states; another secret's do not")
    func sharedKey() {
        let secret = Data(String(repeating: "s", count: 40).utf8)
        let a = RequestStateSigner(secret: secret)
        let b = RequestStateSigner(secret: secret)
        let c = RequestStateSigner(secret: Data(String(repeating: "t", count: 40).utf8))
        let state = a.sign(["v": 1])
        #expect(b.verify(state) == ["v": 1])
        #expect(c.verify(state) == nil)
        #expect(RequestStateSigner().verify(state) == nil)
    }
}

@Suite("ChangeSignature: its digests are the same in every process, and tell content apart")
struct ChangeSignatureDigestTests {
    @Test("equal signatures have equal digests; another row, count or content changes it")
    func digest() {
        let base = ChangeSignature(rowsAffected: 1, changedRowIDs: ["t": [1]], contentDigest: Data(repeating: 1, count: 32))
        #expect(base.digest == ChangeSignature(rowsAffected: 1, changedRowIDs: ["t": [1]], contentDigest: Data(repeating: 1, count: 32)).digest)
        #expect(base.digest.count == 64)
        let others = [
            ChangeSignature(rowsAffected: 2, changedRowIDs: ["t": [1]], contentDigest: Data(repeating: 1, count: 32)),
            ChangeSignature(rowsAffected: 1, changedRowIDs: ["t": [2]], contentDigest: Data(repeating: 1, count: 32)),
            ChangeSignature(rowsAffected: 1, changedRowIDs: ["u": [1]], contentDigest: Data(repeating: 1, count: 32)),
            ChangeSignature(rowsAffected: 1, changedRowIDs: ["t": [1]], contentDigest: Data(repeating: 2, count: 32)),
        ]
        for other in others { #expect(other.digest != base.digest) }
    }

    @Test("the content digest is SHA-256 of typed, length-prefixed values: text and bytes never collide")
    func contentDigest() {
        var text = ContentSHA256()
        text.add(SQLValue.text("ab"))
        var blob = ContentSHA256()
        blob.add(SQLValue.blob(Data("ab".utf8)))
        var split = ContentSHA256()
        split.add(SQLValue.text("a"))
        split.add(SQLValue.text("b"))
        let digests = [text.finalize(), blob.finalize(), split.finalize()]
        #expect(Set(digests).count == 3 && digests.allSatisfy { $0.count == 32 })
    }
}
