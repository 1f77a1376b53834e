/// The format information: the error correction level and mask, 5 bits protected by a
/// BCH(15,5) code and masked with 101010000010010 (ISO/IEC 18004, 7.9 and Annex C).
///
/// Why the mask: without it, level M with mask 0 would be fifteen light modules, which a
/// decoder could mistake for no symbol at all.
enum FormatInformation {
    /// The BCH(15,5) generator, x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1.
    static let generator = 0b101_0011_0111
    /// XORed into the result so the bits are never all zero.
    static let xorMask = 0b101_0100_0001_0010

    /// The 15 bits, bit 14 the most significant, as Annex C's Table C.1 lists them.
    static func bits(errorCorrection: QRCode.ErrorCorrection, mask: Int) -> Int {
        let data = errorCorrection.formatBits << 3 | mask
        return (data << 10 | BCH.remainder(of: data << 10, generator: generator)) ^ xorMask
    }
}

/// The version information: 6 bits of version, protected by a BCH(18,6) code (ISO/IEC 18004,
/// 7.10 and Annex D). Only from version 7: smaller versions are told apart by their size.
enum VersionInformation {
    /// The BCH(18,6) generator, x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1.
    static let generator = 0b1_1111_0010_0101

    /// The 18 bits, bit 17 the most significant, as Annex D's Table D.1 lists them.
    static func bits(version: Int) -> Int {
        version << 12 | BCH.remainder(of: version << 12, generator: generator)
    }
}

/// Division of polynomials over GF(2), as the format and version information's BCH codes
/// need it.
enum BCH {
    /// The remainder of `value` divided by `generator`, both as polynomials over GF(2).
    static func remainder(of value: Int, generator: Int) -> Int {
        let degree = generator.bitWidth - generator.leadingZeroBitCount - 1
        var remainder = value
        while remainder != 0 {
            let top = remainder.bitWidth - remainder.leadingZeroBitCount - 1
            guard top >= degree else { break }
            remainder ^= generator << (top - degree)
        }
        return remainder
    }
}
