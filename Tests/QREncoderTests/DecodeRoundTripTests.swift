import Foundation
import Testing

@testable import QREncoder

/// The encoder's real test: an independent reader (zxing-cpp) decodes what it draws, to the
/// exact bytes, and reads the version, level and mask it says it used.
@Suite("QR codes decode with zxing-cpp")
struct DecodeRoundTripTests {
    /// Fixed so every run checks the same symbols; `LIFESIGNAL_QR_SEED=<decimal>` draws others.
    /// Every failure names the seed and the case, so it reproduces.
    static let defaultSeed: UInt64 = 0x5152_434F_4445  // "QRCODE"

    @Test("every version, level and mask, binary and UTF-8 payloads up to each level's capacity, decode to the bytes encoded")
    func roundTrip() async throws {
        let python = try ZXingDecoder.python()
        let seed = ProcessInfo.processInfo.environment["LIFESIGNAL_QR_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let cases = RoundTripCases.make(seed: seed)

        // The cases cover what they claim to.
        #expect(Set(cases.compactMap(\.mask)) == Set(0...7), "seed \(seed)")
        #expect(Set(cases.map(\.errorCorrection)) == Set(QRCode.ErrorCorrection.allCases), "seed \(seed)")
        #expect(Set(cases.map(\.kind)) == Set(RoundTripCase.Kind.allCases), "seed \(seed)")

        var codes: [(RoundTripCase, QRCode)] = []
        for testCase in cases {
            do {
                codes.append((testCase, try testCase.encode()))
            } catch {
                Issue.record("seed \(seed), \(testCase): \(error)")
            }
        }
        #expect(Set(codes.map(\.1.version)) == Set(1...40), "seed \(seed)")

        let images = codes.map { $0.1.pgm(moduleSize: 3, quietZone: 4) }
        let results = try await ZXingDecoder.decode(images, python: python)
        for ((testCase, code), result) in zip(codes, results) {
            let context = Comment(rawValue: "seed \(seed), \(testCase), version \(code.version)")
            let length = testCase.bytes.count
            // The smallest version that holds the payload, and the mask asked for.
            #expect(RoundTripCases.capacity(code.version - 1, code.errorCorrection) < length, context)
            #expect(RoundTripCases.capacity(code.version, code.errorCorrection) >= length, context)
            #expect(code.errorCorrection == testCase.errorCorrection, context)
            if let mask = testCase.mask { #expect(code.mask == mask, context) }

            #expect(result.error == nil, context)
            let symbols = result.codes ?? []
            guard symbols.count == 1, let symbol = symbols.first else {
                Issue.record("zxing-cpp found \(symbols.count) QR codes, not 1: \(context.rawValue)")
                continue
            }
            #expect(symbol.hex == ZXingDecoder.hex(testCase.bytes), context)
            #expect(symbol.version == code.version, context)
            #expect(symbol.ecLevel == code.errorCorrection.letter, context)
            #expect(symbol.mask == code.mask, context)
            // Not one codeword needed correcting: a wrong module, remainder bit or error
            // correction codeword would decode all the same, but cost some of this.
            #expect(symbol.unusedErrorCorrection == 1, context)
        }
    }

    /// The parts of the function patterns a decoder reads twice, and which copy to blank.
    enum Damage: CaseIterable {
        case formatAroundTopLeft, formatBesideOtherFinders, versionTopRight, versionBottomLeft

        /// The modules of that copy.
        func modules(size: Int) -> [(x: Int, y: Int)] {
            switch self {
            case .formatAroundTopLeft:
                (0...8).filter { $0 != 6 }.map { (8, $0) } + (0...7).filter { $0 != 6 }.map { ($0, 8) }
            case .formatBesideOtherFinders:
                (size - 8..<size).map { ($0, 8) } + (size - 7..<size).map { (8, $0) }
            case .versionTopRight:
                (size - 11...size - 9).flatMap { x in (0...5).map { (x, $0) } }
            case .versionBottomLeft:
                (0...5).flatMap { x in (size - 11...size - 9).map { (x, $0) } }
            }
        }
    }

    @Test("either copy of the format information, and either block of the version information, is enough to decode")
    func eitherCopy() async throws {
        let python = try ZXingDecoder.python()
        let moduleSize = 3
        let quietZone = 4
        var images: [[UInt8]] = []
        var expected: [(code: QRCode, bytes: [UInt8], damage: Damage)] = []
        for (index, level) in QRCode.ErrorCorrection.allCases.enumerated() {
            let version = [7, 12, 23, 40][index]
            let bytes = (0..<RoundTripCases.capacity(version, level)).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ index) }
            let code = try QRCode(bytes: bytes, errorCorrection: level, mask: 2 * index + 1)
            #expect(code.version == version)
            let side = (code.size + 2 * quietZone) * moduleSize
            let header = Array("P5\n\(side) \(side)\n255\n".utf8)
            for damage in Damage.allCases {
                // Blanked (light) modules read as all zeros, which is no valid format or version
                // word, so the decoder must take the other copy.
                var pixels = code.grayscalePixels(moduleSize: moduleSize, quietZone: quietZone).pixels
                for (x, y) in damage.modules(size: code.size) {
                    for row in (y + quietZone) * moduleSize..<(y + quietZone + 1) * moduleSize {
                        for column in (x + quietZone) * moduleSize..<(x + quietZone + 1) * moduleSize {
                            pixels[row * side + column] = 255
                        }
                    }
                }
                images.append(header + pixels)
                expected.append((code, bytes, damage))
            }
        }
        let results = try await ZXingDecoder.decode(images, python: python)
        for ((code, bytes, damage), result) in zip(expected, results) {
            let context = Comment(rawValue: "version \(code.version)-\(code.errorCorrection.letter), mask \(code.mask), \(damage) blanked")
            guard let symbol = result.codes?.first, result.codes?.count == 1 else {
                Issue.record("zxing-cpp found \(result.codes?.count ?? 0) QR codes, not 1: \(context.rawValue)")
                continue
            }
            #expect(symbol.hex == ZXingDecoder.hex(bytes), context)
            #expect(symbol.version == code.version && symbol.ecLevel == code.errorCorrection.letter && symbol.mask == code.mask, context)
        }
    }
}
