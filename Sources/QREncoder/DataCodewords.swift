/// The data codewords of a symbol: one byte-mode segment, then the terminator and padding
/// (ISO/IEC 18004, 7.4).
enum DataCodewords {
    /// The byte-mode indicator (Table 2): 0100.
    static let byteMode = 0b0100
    /// The pad codewords, alternated to fill the symbol (7.4.10): 11101100 and 00010001,
    /// chosen by the standard so that padding does not form long runs of one colour.
    static let padCodewords: [UInt8] = [0xEC, 0x11]

    /// `bytes` as exactly `capacity` data codewords for `version`.
    ///
    /// - Precondition: they fit (`SymbolTables.byteCapacity` is at least `bytes.count`).
    static func encode(_ bytes: [UInt8], version: Int, capacity: Int) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(byteMode, count: 4)
        bits.append(bytes.count, count: SymbolTables.characterCountBits(version: version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        // The terminator is up to four zero bits: fewer when the symbol is full.
        let capacityBits = capacity * 8
        bits.append(0, count: min(4, capacityBits - bits.count))
        // Then zeros to the next codeword boundary.
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad = 0
        while codewords.count < capacity {
            codewords.append(padCodewords[pad])
            pad ^= 1
        }
        return codewords
    }
}

/// A sequence of bits, written most significant first, as the standard lays out a segment.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    /// Appends the low `count` bits of `value`, highest first.
    mutating func append(_ value: Int, count bitCount: Int) {
        guard bitCount > 0 else { return }
        for shift in stride(from: bitCount - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 {
                bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8)
            }
            count += 1
        }
    }
}
