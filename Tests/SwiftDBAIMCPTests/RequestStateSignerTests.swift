import Foundation
import MCP
import SwiftDBAIMCPKernel
import SwiftDBAIPrimitives
import Testing
@testable import SwiftDBAIMCP

@Suite("RequestStateSigner: states it signed verify; forged, altered, malformed and foreign ones do not")
struct RequestStateSignerTests {
    static let payload: Value = ["v": 1, "token": "t", "write": "w", "rows": 7, "exp": 1_900_000_000]

    @Test("a state verifies to the payload it carries")
    func roundTrip() throws {
        let signer = RequestStateSigner()
        let state = signer.sign(Self.payload)
        #expect(signer.verify(state) == Self.payload.objectValue)
        #expect(state.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) }, "base64url and one dot: safe in JSON and URLs")
    }

    @Test("a payload altered, even with its signature kept, does not verify")
    func forgedPayload() throws {
        let signer = RequestStateSigner()
        let state = signer.sign(Self.payload)
        let signature = try #require(state.split(separator: ".").last)
        var altered = try #require(Self.payload.objectValue)
        altered["exp"] = 2_000_000_000
        let forged = Base64URL.encoded(JSONMessageWriter.data(.object(altered))) + "." + signature
        #expect(signer.verify(forged) == nil)
    }

    @Test("a signature altered in any character does not verify")
    func alteredSignature() throws {
        let signer = RequestStateSigner()
        let state = signer.sign(Self.payload)
        let dot = try #require(state.firstIndex(of: "."))
        for index in state.indices where index > dot {
            var characters = Array(state)
            let offset = state.distance(from: state.startIndex, to: index)
            // "A" (0) and "Q" (16) differ in a bit that carries data, even in the last character,
            // whose two low bits are padding.
            characters[offset] = characters[offset] == "A" ? "Q" : "A"
            #expect(signer.verify(String(characters)) == nil)
        }
    }

    @Test("a state another signer (another process, another key) signed does not verify")
    func foreignKey() {
        let state = RequestStateSigner().sign(Self.payload)
        #expect(RequestStateSigner().verify(state) == nil)
    }

    @Test("malformed states are refused, not crashed on", arguments: [
        "", ".", "..", "abc", "abc.", ".abc", "a.b.c", "!!!.???", "eyJ2IjoxfQ", "eyJ2IjoxfQ.eyJ2IjoxfQ.x",
    ])
    func malformed(_ state: String) {
        #expect(RequestStateSigner().verify(state) == nil)
    }

    @Test("a signed payload that is not an object does not verify")
    func notAnObject() {
        let signer = RequestStateSigner()
        #expect(signer.verify(signer.sign(["a", "b"])) == nil)
        #expect(signer.verify(signer.sign("text")) == nil)
    }
}
