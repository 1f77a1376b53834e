import Testing

@testable import QREncoder

/// The encoder's parts against numbers from the standard (ISO/IEC 18004) and from other
/// implementations, each worked out apart from this module.
@Suite("QR code: the standard's vectors")
struct StandardVectorTests {
    @Test("the generator polynomial of degree 7 is Annex A's: α⁰ x⁷ + α⁸⁷ x⁶ + α²²⁹ x⁵ + α¹⁴⁶ x⁴ + α¹⁴⁹ x³ + α²³⁸ x² + α¹⁰² x + α²¹")
    func generatorPolynomial() {
        #expect(ReedSolomon.generator(degree: 7).map { GaloisField.logarithms[Int($0)] } == [87, 229, 146, 149, 238, 102, 21])
        #expect(ReedSolomon.generator(degree: 30).count == 30)
    }

    @Test("Reed–Solomon: Annex I's worked example (version 1-M, 16 data codewords, 10 error correction codewords)")
    func reedSolomonAnnexI() {
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        #expect(ReedSolomon.remainder(of: data, degree: 10) == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test("byte mode: \"Hi\" at 1-M, data codewords worked out by hand, error correction by an independent implementation")
    func byteModeVector() {
        // 0100 (byte mode) 00000010 (2 bytes) 01001000 ('H') 01101001 ('i') 0000 (terminator),
        // then the pad codewords 11101100 and 00010001 in turn up to 16 codewords.
        let data: [UInt8] = [0x40, 0x24, 0x86, 0x90, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        // From a textbook Reed–Solomon written apart (Python, bitwise GF(256) multiplication);
        // zxing-cpp reads the symbol below without correcting a single codeword.
        let correction: [UInt8] = [0x86, 0x70, 0x9E, 0x7B, 0xB8, 0x8A, 0x26, 0xE1, 0xAE, 0x3A]
        let layout = BlockLayout(version: 1, errorCorrection: .medium)
        #expect(layout.dataCodewords == 16)
        #expect(DataCodewords.encode(Array("Hi".utf8), version: 1, capacity: 16) == data)
        #expect(layout.interleave(data) == data + correction)

        // zxing-cpp's own encoder writes "Hi" with an ECI header (0111 00000011) before the
        // byte segment; its codewords check the division on other data.
        let zxingData: [UInt8] = [0x78, 0x38, 0x34, 0x02, 0x48, 0x69, 0x00, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC]
        #expect(ReedSolomon.remainder(of: zxingData, degree: 10) == [0x47, 0x74, 0x3F, 0x0C, 0x7E, 0xED, 0x5B, 0xEF, 0xB8, 0x24])
    }

    @Test("a full symbol fills its data codewords: the terminator is cut short, and no pad codeword follows")
    func fullSymbol() {
        // 1-M holds 14 bytes: 4 + 8 + 112 bits leave 4 of the 128 for the terminator.
        let full = DataCodewords.encode([UInt8](repeating: 0xFF, count: 14), version: 1, capacity: 16)
        #expect(full.count == 16)
        #expect(full.first == 0x40 && full[1] == 0xEF && full.last == 0xF0)
    }

    /// Annex C, Table C.1: the format information bits, after masking, for levels L, M, Q, H
    /// (rows) and masks 0...7 (columns).
    static let formatInformation: [QRCode.ErrorCorrection: [Int]] = [
        .low: [0x77C4, 0x72F3, 0x7DAA, 0x789D, 0x662F, 0x6318, 0x6C41, 0x6976],
        .medium: [0x5412, 0x5125, 0x5E7C, 0x5B4B, 0x45F9, 0x40CE, 0x4F97, 0x4AA0],
        .quartile: [0x355F, 0x3068, 0x3F31, 0x3A06, 0x24B4, 0x2183, 0x2EDA, 0x2BED],
        .high: [0x1689, 0x13BE, 0x1CE7, 0x19D0, 0x0762, 0x0255, 0x0D0C, 0x083B],
    ]

    @Test("format information is Table C.1's for every level and mask, and both copies in the symbol carry it", arguments: QRCode.ErrorCorrection.allCases)
    func formatInformation(level: QRCode.ErrorCorrection) throws {
        let expected = try #require(Self.formatInformation[level])
        for mask in 0...7 {
            #expect(FormatInformation.bits(errorCorrection: level, mask: mask) == expected[mask], "mask \(mask)")
            for version in [1, 7] {
                let length = SymbolTables.byteCapacity(version: version, errorCorrection: level)
                let code = try QRCode(bytes: Array(repeating: 0x5A, count: length), errorCorrection: level, mask: mask)
                #expect(code.version == version)
                #expect(Self.readFormatInformation(code, copy: 0) == expected[mask], "mask \(mask), version \(version), first copy")
                #expect(Self.readFormatInformation(code, copy: 1) == expected[mask], "mask \(mask), version \(version), second copy")
            }
        }
    }

    /// Table D.1: the version information bits of versions 7...40.
    static let versionInformation: [Int] = [
        0x07C94, 0x085BC, 0x09A99, 0x0A4D3, 0x0BBF6, 0x0C762, 0x0D847, 0x0E60D, 0x0F928, 0x10B78, 0x1145D, 0x12A17,
        0x13532, 0x149A6, 0x15683, 0x168C9, 0x177EC, 0x18EC4, 0x191E1, 0x1AFAB, 0x1B08E, 0x1CC1A, 0x1D33F, 0x1ED75,
        0x1F250, 0x209D5, 0x216F0, 0x228BA, 0x2379F, 0x24B0B, 0x2542E, 0x26A64, 0x27541, 0x28C69,
    ]

    @Test("version information is Table D.1's (version 7: 0x07C94), and both blocks in the symbol carry it")
    func versionInformation() throws {
        #expect(VersionInformation.bits(version: 7) == 0x07C94)
        #expect((7...40).map { VersionInformation.bits(version: $0) } == Self.versionInformation)
        for version in [7, 8, 21, 40] {
            let length = SymbolTables.byteCapacity(version: version, errorCorrection: .medium)
            let code = try QRCode(bytes: Array(repeating: 0xA5, count: length))
            #expect(code.version == version)
            var above = 0
            var left = 0
            for index in 0..<18 {
                // Bit i sits at (size − 11 + i mod 3, i div 3) in the block above the top-right
                // finder's left, and transposed beside the bottom-left finder.
                if code[code.size - 11 + index % 3, index / 3] { above |= 1 << index }
                if code[index / 3, code.size - 11 + index % 3] { left |= 1 << index }
            }
            #expect(above == Self.versionInformation[version - 7], "version \(version)")
            #expect(left == Self.versionInformation[version - 7], "version \(version)")
        }
        // Below version 7 those modules are data, not version information.
        #expect(ModuleGrid(version: 6).isFunction(x: 29, y: 0) == false)
    }

    @Test("Table 1's codewords are exactly the modules the function patterns leave, less its remainder bits")
    func codewordCapacity() {
        // Table 1's remainder bits per version.
        let remainderBits = [
            0, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0,
        ]
        for version in 1...40 {
            let grid = ModuleGrid(version: version)
            let free = grid.isFunction.count { !$0 }
            #expect(free == SymbolTables.totalCodewords[version - 1] * 8 + remainderBits[version - 1], "version \(version)")
        }
    }

    @Test("Table 9's blocks: as many data codewords as the symbol holds, split into blocks that differ by at most one")
    func blockLayout() {
        for version in 1...40 {
            for level in QRCode.ErrorCorrection.allCases {
                let layout = BlockLayout(version: version, errorCorrection: level)
                let blocks = layout.split([UInt8](repeating: 0, count: layout.dataCodewords))
                #expect(blocks.count == layout.blocks)
                #expect(blocks.map(\.count).reduce(0, +) == layout.dataCodewords)
                #expect(Set(blocks.map(\.count)).count <= 2)
                #expect(blocks.map(\.count) == blocks.map(\.count).sorted(), "short blocks come first")
                #expect(layout.interleave([UInt8](repeating: 0, count: layout.dataCodewords)).count == layout.totalCodewords)
            }
        }
        // Table 9's rows, as (blocks, total codewords per block, data codewords per block).
        let fiveQ = BlockLayout(version: 5, errorCorrection: .quartile)
        #expect(fiveQ.split([UInt8](repeating: 0, count: 62)).map(\.count) == [15, 15, 16, 16])
        #expect(fiveQ.errorCorrectionPerBlock == 18)
        let fortyH = BlockLayout(version: 40, errorCorrection: .high)
        let counts = fortyH.split([UInt8](repeating: 0, count: fortyH.dataCodewords)).map(\.count)
        #expect(counts.filter { $0 == 15 }.count == 20 && counts.filter { $0 == 16 }.count == 61)
    }

    @Test("Table E.1's alignment coordinates start at 6, end 7 from the edge, and are evenly spaced after the first gap")
    func alignmentPositions() {
        #expect(SymbolTables.alignmentPatternCenters.count == 40)
        #expect(SymbolTables.alignmentPatternCenters[0].isEmpty)
        for version in 2...40 {
            let centers = SymbolTables.alignmentPatternCenters[version - 1]
            #expect(centers.count == version / 7 + 2, "version \(version)")
            #expect(centers.first == 6 && centers.last == 17 + 4 * version - 7, "version \(version)")
            let gaps = zip(centers.dropFirst(), centers).map { $0 - $1 }.dropFirst()
            #expect(Set(gaps).count <= 1 && gaps.allSatisfy { $0 % 2 == 0 }, "version \(version): \(centers)")
        }
    }

    @Test("Table 7's byte capacities at the boundaries pick the smallest version, and one byte more needs the next")
    func versionChoice() throws {
        let boundaries: [(QRCode.ErrorCorrection, version: Int, bytes: Int)] = [
            (.medium, 1, 14), (.medium, 2, 26), (.medium, 10, 213), (.medium, 40, 2331),
            (.low, 1, 17), (.low, 9, 230), (.low, 40, 2953), (.quartile, 1, 11), (.quartile, 40, 1663), (.high, 1, 7), (.high, 40, 1273),
        ]
        for (level, version, bytes) in boundaries {
            #expect(SymbolTables.byteCapacity(version: version, errorCorrection: level) == bytes)
            let fits = try QRCode(bytes: Array(repeating: 0x30, count: bytes), errorCorrection: level)
            #expect(fits.version == version && fits.errorCorrection == level, "\(bytes) bytes at \(level.letter)")
            if version < 40 {
                let next = try QRCode(bytes: Array(repeating: 0x30, count: bytes + 1), errorCorrection: level)
                #expect(next.version == version + 1, "\(bytes + 1) bytes at \(level.letter)")
            }
        }
        #expect(try QRCode(bytes: []).version == 1)
        #expect(try QRCode(bytes: [0]).errorCorrection == .medium)
    }

    @Test("more than version 40 holds is refused, with the numbers in the message")
    func tooLong() {
        #expect(throws: QRCode.EncodingError.tooLong(bytes: 2332, maximum: 2331)) {
            try QRCode(bytes: Array(repeating: 0x41, count: 2332))
        }
        #expect(throws: QRCode.EncodingError.tooLong(bytes: 1274, maximum: 1273)) {
            try QRCode(text: String(repeating: "é", count: 637), errorCorrection: .high)
        }
        #expect(throws: QRCode.EncodingError.tooLong(bytes: 3000, maximum: 2953)) {
            try QRCode(bytes: Array(repeating: 0x41, count: 3000), errorCorrection: .low, mask: 3)
        }
        let message = QRCode.EncodingError.tooLong(bytes: 2332, maximum: 2331).description
        #expect(message.contains("2332 bytes") && message.contains("at most 2331 bytes"))
    }

    @Test("size is 17 + 4 × version, and outside it every module is light")
    func sizes() throws {
        for version in 1...40 {
            let code = try QRCode(
                bytes: Array(repeating: 0x7E, count: SymbolTables.byteCapacity(version: version, errorCorrection: .low)), errorCorrection: .low)
            #expect(code.version == version)
            #expect(code.size == 17 + 4 * version)
            #expect(code.modules.count == code.size * code.size)
            // The top-left finder's corner is dark; one step outside is the quiet zone.
            #expect(code[0, 0] && code[code.size - 1, 0] && code[0, code.size - 1])
            #expect(!code[-1, 0] && !code[0, -1] && !code[code.size, 0] && !code[0, code.size] && !code[code.size, code.size])
        }
    }

    @Test("function patterns: three finders with separators, timing, the dark module, alignment patterns")
    func functionPatterns() throws {
        for version in [1, 2, 7, 14, 40] {
            let length = SymbolTables.byteCapacity(version: version, errorCorrection: .medium)
            let code = try QRCode(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let size = code.size
            for (left, top) in [(0, 0), (size - 7, 0), (0, size - 7)] {
                for dy in -1...7 {
                    for dx in -1...7 {
                        let ring = max(abs(dx - 3), abs(dy - 3))
                        let x = left + dx
                        let y = top + dy
                        guard x >= 0, y >= 0, x < size, y < size else { continue }
                        #expect(code[x, y] == (ring <= 1 || ring == 3), "version \(version), finder at (\(left), \(top)), module (\(x), \(y))")
                    }
                }
            }
            for index in 8..<size - 8 {
                #expect(code[index, 6] == (index % 2 == 0) && code[6, index] == (index % 2 == 0), "version \(version), timing \(index)")
            }
            #expect(code[8, size - 8], "the dark module")
            let centers = SymbolTables.alignmentPatternCenters[version - 1]
            if let last = centers.last {
                // The alignment pattern nearest the bottom-right corner: dark centre, light ring, dark ring.
                #expect(code[last, last] && !code[last + 1, last] && code[last + 2, last] && code[last + 2, last + 2])
            }
        }
    }

    @Test("the encoder keeps the mask with the lowest penalty, and a forced mask is kept")
    func maskChoice() throws {
        let payloads = ["https://lifesignal.example/l/AbCdEf0123", "LifeSignal", String(repeating: "\u{0}", count: 40), "🚨 check in please"]
        for payload in payloads {
            let chosen = try QRCode(text: payload)
            let scores = try (0...7).map { mask in
                let code = try QRCode(bytes: Array(payload.utf8), errorCorrection: .medium, mask: mask)
                #expect(code.mask == mask && code.version == chosen.version)
                return MaskPenalty.score(code.modules, size: code.size)
            }
            #expect(scores[chosen.mask] == scores.min(), "\(payload): \(scores)")
            #expect(scores.firstIndex(of: scores[chosen.mask]) == chosen.mask, "ties go to the lowest mask")
        }
    }

    @Test("the penalty rules N1–N4 on small lines and grids")
    func penaltyRules() {
        func runs(_ line: String) -> [Int] {
            let modules = line.map { $0 == "#" }
            var runs: [Int] = []
            MaskPenalty.runLengths(modules, start: 0, step: 1, count: modules.count, into: &runs)
            return runs
        }
        #expect(runs("..##.") == [2, 2, 1])
        #expect(runs("#..") == [0, 1, 2])
        // N1: 3 for five in a row, one more per extra module; both colours count.
        #expect(MaskPenalty.runPenalty(runs("####")) == 0)
        #expect(MaskPenalty.runPenalty(runs("#####")) == 3)
        #expect(MaskPenalty.runPenalty(runs("#######.....")) == 5 + 3)
        // N3: 1:1:3:1:1 with four light modules on a side (the symbol's edge counts as light).
        #expect(MaskPenalty.finderLikePenalty(runs("....#.###.#")) == 40)
        #expect(MaskPenalty.finderLikePenalty(runs("#.###.#....")) == 40)
        #expect(MaskPenalty.finderLikePenalty(runs("#.###.#")) == 40)
        #expect(MaskPenalty.finderLikePenalty(runs("##.#.###.#.##")) == 0)
        #expect(MaskPenalty.finderLikePenalty(runs("##...#.###.#...##")) == 0)
        #expect(MaskPenalty.finderLikePenalty(runs("#.#.###.#.#")) == 0)
        #expect(MaskPenalty.finderLikePenalty(runs("#.##.#")) == 0)
        // N2 and N4 on a 3×3 grid: all dark is four 2×2 blocks and 50 % off balance.
        let dark = [Bool](repeating: true, count: 9)
        #expect(MaskPenalty.blockPenalty(dark, size: 3) == 12)
        #expect(MaskPenalty.balancePenalty(dark) == 100)
        #expect(MaskPenalty.balancePenalty([true, false, true, false]) == 0)
        #expect(MaskPenalty.balancePenalty([true, true, true, false, false, false, false, false, false, false]) == 40)
    }

    @Test("text is encoded as its UTF-8 bytes, and equal inputs give equal symbols")
    func textAndEquality() throws {
        let text = "Zoë 🚨 https://lifesignal.example/l/AbC"
        let fromText = try QRCode(text: text, errorCorrection: .quartile)
        #expect(fromText == (try QRCode(bytes: Array(text.utf8), errorCorrection: .quartile)))
        #expect(Set([fromText, try QRCode(text: text, errorCorrection: .quartile)]).count == 1)
        #expect(fromText != (try QRCode(text: text, errorCorrection: .high)))
    }

    /// The 15 format bits as a decoder reads them: copy 0 around the top-left finder, copy 1
    /// split between the other two; bit 14 the most significant.
    static func readFormatInformation(_ code: QRCode, copy: Int) -> Int {
        let size = code.size
        var positions: [(Int, Int)] = []
        if copy == 0 {
            positions = (0...5).map { (8, $0) } + [(8, 7), (8, 8), (7, 8)] + (9..<15).map { (14 - $0, 8) }
        } else {
            positions = (0..<8).map { (size - 1 - $0, 8) } + (8..<15).map { (8, size - 15 + $0) }
        }
        var bits = 0
        for (index, position) in positions.enumerated() where code[position.0, position.1] {
            bits |= 1 << index
        }
        return bits
    }
}
