import Testing

@testable import SwiftDBAITraceExport

@Suite("ProtobufWriter: the wire format of the OTLP messages")
struct ProtobufWriterTests {
    static let varints: [(UInt64, [UInt8])] = [
        (0, [0]), (1, [1]), (127, [0x7f]), (128, [0x80, 0x01]), (300, [0xac, 0x02]), (16_383, [0xff, 0x7f]), (16_384, [0x80, 0x80, 0x01]),
        (UInt64.max, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
    ]

    @Test("varints take 7 bits a byte, low bits first; their size is counted as written")
    func varints() {
        for (value, bytes) in Self.varints {
            var writer = ProtobufWriter()
            writer.varint(value)
            #expect(writer.bytes == bytes)
            #expect(ProtobufWriter.varintSize(value) == bytes.count)
        }
    }

    @Test("the writer grows past its first capacity, keeping what it wrote")
    func grows() {
        var writer = ProtobufWriter(capacity: 1)
        for number in 0..<5_000 { writer.varint(UInt64(number % 100)) }
        #expect(writer.count == 5_000)
        #expect(writer.bytes == (0..<5_000).map { UInt8($0 % 100) })
    }

    @Test("a message's length goes before its body, in as many bytes as it needs")
    func messageLengths() throws {
        for length in [0, 1, 127, 128, 300, 20_000] {
            var writer = ProtobufWriter()
            writer.message(3) { $0.string(1, String(repeating: "x", count: length), always: true) }
            writer.varint(4, 9)
            let fields = try ProtobufReader.fields(writer.bytes)
            #expect(fields.count == 2)
            #expect(fields[1].field == 4 && fields[1].value == .varint(9))
            let inner = try ProtobufReader.message(3, in: writer.bytes)
            #expect(try ProtobufReader.string(1, in: inner) == String(repeating: "x", count: length))
        }
    }

    @Test("a field of raw bytes whose length prefix makes the writer grow keeps its body")
    func growsWhilePrefixing() throws {
        for filled in 40..<70 {
            var writer = ProtobufWriter(capacity: 64)
            for _ in 0..<filled { writer.varint(1) }
            let body: [UInt8] = [1, 2, 3]
            writer.message(1) { field in body.withUnsafeBytes { field.raw($0) } }
            let bytes = writer.bytes
            #expect(bytes.count == filled + 5)
            #expect(Array(bytes.suffix(5)) == [0x0a, 3, 1, 2, 3])
        }
    }

    @Test("zero scalars are left out unless asked for; fixed values are little-endian")
    func scalars() throws {
        var writer = ProtobufWriter()
        writer.varint(1, 0)
        writer.string(2, "")
        writer.fixed64(3, 0)
        writer.fixed64(4, 0x0102_0304_0506_0708)
        writer.fixed32(5, 0x0a0b_0c0d)
        writer.string(6, "", always: true)
        writer.integer(7, -1)
        writer.boolean(8, false)
        writer.bigEndian(9, 0x0102_0304_0506_0708)
        let fields = try ProtobufReader.fields(writer.bytes)
        #expect(fields.map(\.field) == [4, 5, 6, 7, 8, 9])
        #expect(fields[0].value == .fixed64(0x0102_0304_0506_0708))
        #expect(fields[1].value == .fixed32(0x0a0b_0c0d))
        #expect(fields[2].value == .bytes([]))
        #expect(fields[3].value == .varint(UInt64.max))
        #expect(fields[4].value == .varint(0))
        #expect(fields[5].value == .bytes([1, 2, 3, 4, 5, 6, 7, 8]))
    }
}
