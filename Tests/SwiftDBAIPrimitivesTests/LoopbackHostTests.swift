import Testing
import SwiftDBAIPrimitives

@Suite struct LoopbackHostTests {
    @Test("loopback names: localhost, 127/8 and ::1, nothing that only starts like them", arguments: [
        ("localhost", true), ("LOCALHOST", true), ("app.localhost", true), ("127.0.0.1", true), ("127.255.0.9", true),
        ("::1", true), ("127.0.0.1.evil.com", false), ("127.0.0", false), ("128.0.0.1", false), ("localhost.evil.com", false),
        ("0.0.0.0", false), ("127.0.0.256", false),
    ] as [(String, Bool)])
    func loopback(host: String, expected: Bool) {
        #expect(LoopbackHost.contains(host) == expected)
    }
}
