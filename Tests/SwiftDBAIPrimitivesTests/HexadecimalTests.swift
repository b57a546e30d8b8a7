import Testing
import SwiftDBAIPrimitives

@Suite struct HexadecimalTests {
    @Test func bytesAreTwoLowercaseDigitsEach() {
        #expect(Hexadecimal.string([0x00, 0x0f, 0xa0, 0xff, 0x7b]) == "000fa0ff7b")
        #expect(Hexadecimal.string([UInt8]()) == "")
    }
}
