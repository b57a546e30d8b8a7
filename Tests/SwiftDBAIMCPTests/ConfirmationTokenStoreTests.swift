import Foundation
import Testing
@testable import SwiftDBAIMCP

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = ContinuousClock.now
    var now: ContinuousClock.Instant { lock.withLock { current } }
    func advance(by duration: Duration) { lock.withLock { current = current.advanced(by: duration) } }
}

@Suite("Confirmation tokens")
struct ConfirmationTokenStoreTests {
    @Test("a token confirms its own write once")
    func singleUse() async {
        let store = ConfirmationTokenStore()
        let token = await store.issue(for: "delete A")
        #expect(token.count == 32)
        #expect(await store.redeem(token, for: "delete A").isSuccess)
        guard case .failure(.unknown) = await store.redeem(token, for: "delete A") else {
            Issue.record("a used token must be refused")
            return
        }
    }

    @Test("a token issued for one write cannot confirm another, and stays valid for its own")
    func mismatch() async {
        let store = ConfirmationTokenStore()
        let token = await store.issue(for: "delete A")
        guard case .failure(.mismatch) = await store.redeem(token, for: "delete B") else {
            Issue.record("a token for another write must be refused")
            return
        }
        #expect(await store.redeem(token, for: "delete A").isSuccess)
    }

    @Test("a token expires after its lifetime")
    func expiry() async {
        let clock = ManualClock()
        let store = ConfirmationTokenStore(lifetime: .seconds(60), now: { clock.now })
        let token = await store.issue(for: "delete A")
        clock.advance(by: .seconds(61))
        guard case .failure(.expired) = await store.redeem(token, for: "delete A") else {
            Issue.record("an expired token must be refused")
            return
        }
    }

    @Test("tokens are unpredictable and distinct")
    func distinct() async {
        let store = ConfirmationTokenStore()
        var tokens: Set<String> = []
        for _ in 0..<200 { tokens.insert(await store.issue(for: "x")) }
        #expect(tokens.count == 200)
    }

    @Test("the fingerprint binds the tool, the statements and every bound value")
    func fingerprint() {
        let base = WriteConfirmationFlow.fingerprint(
            tool: "delete", statements: [.init(sql: "DELETE FROM t WHERE id = ?", arguments: [1])])
        #expect(base == WriteConfirmationFlow.fingerprint(
            tool: "delete", statements: [.init(sql: "DELETE FROM t WHERE id = ?", arguments: [1])]))
        #expect(base != WriteConfirmationFlow.fingerprint(
            tool: "delete", statements: [.init(sql: "DELETE FROM t WHERE id = ?", arguments: [2])]))
        #expect(base != WriteConfirmationFlow.fingerprint(
            tool: "update", statements: [.init(sql: "DELETE FROM t WHERE id = ?", arguments: [1])]))
        #expect(base != WriteConfirmationFlow.fingerprint(
            tool: "delete", statements: [.init(sql: "DELETE FROM t WHERE id = ? ", arguments: [1])]))
    }

    @Test("beyond its capacity, the store drops the token closest to expiry; the newest still redeem")
    func capacity() async {
        let store = ConfirmationTokenStore(capacity: 3)
        var tokens: [String] = []
        for number in 0..<5 { tokens.append(await store.issue(for: "write \(number)")) }
        #expect(await store.redeem(tokens[0], for: "write 0").isSuccess == false)
        #expect(await store.redeem(tokens[1], for: "write 1").isSuccess == false)
        for number in 2..<5 { #expect(await store.redeem(tokens[number], for: "write \(number)").isSuccess) }
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
