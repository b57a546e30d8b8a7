import Foundation

/// Writes Protocol Buffers' wire format (only what the OTLP messages use): varints, fixed values,
/// and length-delimited fields whose length is written once their body is, into memory of its
/// own (it grows as needed; no bounds or uniqueness checks on each byte).
struct ProtobufWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// What is written.
    var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Appends what is written to `array`.
    func append(to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }

    /// How many bytes `value` takes as a varint.
    static func varintSize(_ value: UInt64) -> Int {
        value < 0x80 ? 1 : (70 - value.leadingZeroBitCount) / 7
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        reserve(10)
        var value = value
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count += 1
            value >>= 7
        }
        base[count] = UInt8(value)
        count += 1
    }

    /// Bytes as they are.
    @inline(__always)
    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let start = bytes.baseAddress { UnsafeMutableRawPointer(base + count).copyMemory(from: start, byteCount: bytes.count) }
        count += bytes.count
    }

    @inline(__always)
    private mutating func tag(_ field: UInt32, _ wireType: UInt32) {
        varint(UInt64(field << 3 | wireType))
    }

    /// A varint field (`uint32`, `int64`, `bool`, an enum); a zero is left out, as proto3 does.
    mutating func varint(_ field: UInt32, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, 0)
        varint(value)
    }

    /// An `int64` field, always written (a zero is a value in a `oneof`).
    mutating func integer(_ field: UInt32, _ value: Int64) {
        tag(field, 0)
        varint(UInt64(bitPattern: value))
    }

    /// A `bool` field, always written (`false` is a value in a `oneof`).
    mutating func boolean(_ field: UInt32, _ value: Bool) {
        tag(field, 0)
        varint(value ? 1 : 0)
    }

    /// A `fixed64` or `double` field.
    mutating func fixed64(_ field: UInt32, _ value: UInt64, always: Bool = false) {
        guard value != 0 || always else { return }
        tag(field, 1)
        withUnsafeBytes(of: value.littleEndian) { raw($0) }
    }

    /// A `fixed32` field.
    mutating func fixed32(_ field: UInt32, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, 5)
        withUnsafeBytes(of: value.littleEndian) { raw($0) }
    }

    /// A `string` field; an empty one is left out unless `always`.
    @inline(__always)
    mutating func string(_ field: UInt32, _ value: String, always: Bool = false) {
        guard !value.isEmpty || always else { return }
        tag(field, 2)
        var value = value
        value.withUTF8 { text in
            varint(UInt64(text.count))
            raw(UnsafeRawBufferPointer(text))
        }
    }

    /// A `bytes` field of the big-endian bytes of `values`.
    mutating func bigEndian(_ field: UInt32, _ values: UInt64...) {
        tag(field, 2)
        varint(UInt64(values.count * 8))
        for value in values { withUnsafeBytes(of: value.bigEndian) { raw($0) } }
    }

    /// A `KeyValue` message whose `AnyValue` holds one string (`valueField` 1).
    mutating func keyValue(_ field: UInt32, key: String, valueField: UInt32, text: String) {
        let (keyBytes, textBytes) = (key.utf8.count, text.utf8.count)
        let anyValue = 1 + Self.varintSize(UInt64(textBytes)) + textBytes
        tag(field, 2)
        varint(UInt64(1 + Self.varintSize(UInt64(keyBytes)) + keyBytes + 1 + Self.varintSize(UInt64(anyValue)) + anyValue))
        string(1, key, always: true)
        tag(2, 2)
        varint(UInt64(anyValue))
        string(valueField, text, always: true)
    }

    /// A `KeyValue` message whose `AnyValue` holds one varint (`valueField` 2, a Boolean, or 3, an
    /// integer), written even when zero.
    mutating func keyValue(_ field: UInt32, key: String, valueField: UInt32, varint value: UInt64) {
        let keyBytes = key.utf8.count
        let anyValue = 1 + Self.varintSize(value)
        tag(field, 2)
        varint(UInt64(1 + Self.varintSize(UInt64(keyBytes)) + keyBytes + 1 + Self.varintSize(UInt64(anyValue)) + anyValue))
        string(1, key, always: true)
        tag(2, 2)
        varint(UInt64(anyValue))
        tag(valueField, 0)
        varint(value)
    }

    /// A length-delimited field whose body `body` writes (a message's fields, or any bytes), then
    /// its length goes in front of them.
    mutating func message(_ field: UInt32, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, 2)
        let start = count
        body(&self)
        let length = count - start
        let prefix = Self.varintSize(UInt64(length))
        // Room for the varint's own reserve too: growing after the move would copy only `start` bytes.
        reserve(max(prefix, 10))
        memmove(base + start + prefix, base + start, length)
        let end = count + prefix
        count = start
        varint(UInt64(length))
        count = end
    }
}
