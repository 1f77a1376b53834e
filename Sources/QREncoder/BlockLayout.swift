/// How a symbol's codewords are split into error correction blocks and interleaved
/// (ISO/IEC 18004, 7.5 and 7.6).
///
/// Why blocks: a Reed–Solomon code over GF(256) works on at most 255 codewords, and a
/// big symbol holds thousands. Why interleaving: a smudge covers neighbouring modules, and
/// taking codewords from the blocks in turn spreads that damage over every block, so each
/// loses a little rather than one losing everything.
struct BlockLayout: Sendable, Hashable {
    let totalCodewords: Int
    let blocks: Int
    let errorCorrectionPerBlock: Int

    init(version: Int, errorCorrection: QRCode.ErrorCorrection) {
        let level = errorCorrection.tableIndex
        totalCodewords = SymbolTables.totalCodewords[version - 1]
        blocks = SymbolTables.errorCorrectionBlocks[level][version - 1]
        errorCorrectionPerBlock = SymbolTables.errorCorrectionCodewordsPerBlock[level][version - 1]
    }

    var dataCodewords: Int { totalCodewords - blocks * errorCorrectionPerBlock }

    /// The blocks that come first in Table 9 are the short ones; the rest hold one more data
    /// codeword, which is how the table's two groups of a version share the remainder.
    var shortBlocks: Int { blocks - totalCodewords % blocks }

    /// Data codewords in a short block.
    var shortBlockData: Int { totalCodewords / blocks - errorCorrectionPerBlock }

    /// The data codewords of each block, in order.
    func split(_ data: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var start = 0
        for block in 0..<blocks {
            let length = shortBlockData + (block < shortBlocks ? 0 : 1)
            result.append(Array(data[start..<start + length]))
            start += length
        }
        return result
    }

    /// The final sequence of codewords: the data codewords of every block taken in turn (a
    /// short block has none in the last round), then their error correction codewords the
    /// same way.
    ///
    /// - Precondition: `data.count == dataCodewords`.
    func interleave(_ data: [UInt8]) -> [UInt8] {
        let dataBlocks = split(data)
        let generator = ReedSolomon.generator(degree: errorCorrectionPerBlock)
        let correctionBlocks = dataBlocks.map { ReedSolomon.remainder(of: $0, generator: generator) }
        var result: [UInt8] = []
        result.reserveCapacity(totalCodewords)
        for index in 0...shortBlockData {
            for block in dataBlocks where index < block.count {
                result.append(block[index])
            }
        }
        for index in 0..<errorCorrectionPerBlock {
            for block in correctionBlocks {
                result.append(block[index])
            }
        }
        return result
    }
}
