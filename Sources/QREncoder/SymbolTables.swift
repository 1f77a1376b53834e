/// The standard's tables, in one place, so each number can be checked against its source.
///
/// From ISO/IEC 18004:2015 (QR Code Model 2):
/// - Table 1, "Codeword capacity of all versions of QR Code": the total codewords per version.
/// - Table 9, "Error correction characteristics for QR Code": the blocks per version and level
///   and the error correction codewords in each block (every block of a symbol has the same
///   number; blocks differ only in data codewords, by at most one).
/// - Annex E, Table E.1, "Row/column coordinates of center module of alignment patterns".
/// - Table 3, "Number of bits in character count indicator", for byte mode.
///
/// Table 7 (data capacity) is not copied: it follows from Tables 1, 3 and 9, and the tests
/// compare the result with Table 7's byte-mode column at the boundaries.
enum SymbolTables {
    /// Table 1: all codewords (data and error correction) of versions 1...40, in order.
    static let totalCodewords: [Int] = [
        26, 44, 70, 100, 134, 172, 196, 242, 292, 346,
        404, 466, 532, 581, 655, 733, 815, 901, 991, 1085,
        1156, 1258, 1364, 1474, 1588, 1706, 1828, 1921, 2051, 2185,
        2323, 2465, 2611, 2761, 2876, 3034, 3196, 3362, 3532, 3706,
    ]

    /// Table 9: error correction codewords per block, one row per level (L, M, Q, H), one
    /// column per version 1...40.
    static let errorCorrectionCodewordsPerBlock: [[Int]] = [
        [
            7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
            28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
            26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
            28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
            30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// Table 9: error correction blocks, one row per level (L, M, Q, H), one column per
    /// version 1...40.
    static let errorCorrectionBlocks: [[Int]] = [
        [
            1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
            8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
        ],
        [
            1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
            17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
        ],
        [
            1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
            23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
        ],
        [
            1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
            25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    /// Annex E, Table E.1: the row and column coordinates of alignment pattern centres for
    /// versions 1...40 (version 1 has none). A pattern sits at every pair of coordinates
    /// except the three pairs that fall on a finder pattern.
    static let alignmentPatternCenters: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34],
        [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50], [6, 30, 54], [6, 32, 58], [6, 34, 62],
        [6, 26, 46, 66], [6, 26, 48, 70], [6, 26, 50, 74], [6, 30, 54, 78], [6, 30, 56, 82], [6, 30, 58, 86], [6, 34, 62, 90],
        [6, 28, 50, 72, 94], [6, 26, 50, 74, 98], [6, 30, 54, 78, 102], [6, 28, 54, 80, 106],
        [6, 32, 58, 84, 110], [6, 30, 58, 86, 114], [6, 34, 62, 90, 118],
        [6, 26, 50, 74, 98, 122], [6, 30, 54, 78, 102, 126], [6, 26, 52, 78, 104, 130], [6, 30, 56, 82, 108, 134],
        [6, 34, 60, 86, 112, 138], [6, 30, 58, 86, 114, 142], [6, 34, 62, 90, 118, 146],
        [6, 30, 54, 78, 102, 126, 150], [6, 24, 50, 76, 102, 128, 154], [6, 28, 54, 80, 106, 132, 158],
        [6, 32, 58, 84, 110, 136, 162], [6, 26, 54, 82, 110, 138, 166], [6, 30, 58, 86, 114, 142, 170],
    ]

    /// Table 3: the byte-mode character count indicator is 8 bits long up to version 9 and
    /// 16 bits from version 10.
    static func characterCountBits(version: Int) -> Int { version <= 9 ? 8 : 16 }

    /// The data codewords of a symbol: Table 1's total less Table 9's error correction.
    static func dataCodewords(version: Int, errorCorrection: QRCode.ErrorCorrection) -> Int {
        let level = errorCorrection.tableIndex
        return totalCodewords[version - 1]
            - errorCorrectionBlocks[level][version - 1] * errorCorrectionCodewordsPerBlock[level][version - 1]
    }

    /// The most bytes a symbol holds in one byte-mode segment (Table 7's byte column): the
    /// data bits less the 4-bit mode indicator and the character count, in whole bytes.
    static func byteCapacity(version: Int, errorCorrection: QRCode.ErrorCorrection) -> Int {
        let bits = dataCodewords(version: version, errorCorrection: errorCorrection) * 8 - 4 - characterCountBits(version: version)
        return min(bits / 8, (1 << characterCountBits(version: version)) - 1)
    }

    /// The smallest version whose byte capacity at `errorCorrection` is at least `count`, or
    /// `nil` when no version is big enough.
    static func smallestVersion(holding count: Int, at errorCorrection: QRCode.ErrorCorrection) -> Int? {
        (1...40).first { byteCapacity(version: $0, errorCorrection: errorCorrection) >= count }
    }
}
