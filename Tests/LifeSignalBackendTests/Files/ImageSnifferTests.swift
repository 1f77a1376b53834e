import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `ImageSniffer`: the format from the bytes, the size from the header, and a refusal (never
/// a trap, a hang or an overflow) for anything else.
@Suite("Image sniffing")
struct ImageSnifferTests {
    static func rejection(_ data: Data, declared: String = "image/png") -> ImageRejection? {
        do throws(ImageRejection) {
            _ = try ImageSniffer.inspect(data, declared: declared)
            return nil
        } catch {
            return error
        }
    }

    static func isMalformed(_ data: Data, _ format: ImageFormat) -> Bool {
        if case .malformed(format, _) = rejection(data) { true } else { false }
    }

    @Test("each format taken is known by its bytes and its size read from its header")
    func formats() throws {
        let cases: [(Data, ImageFormat, Int, Int)] = [
            (TestImages.png(), .png, 2, 2),
            (TestImages.png(width: 4097, height: 1), .png, 4097, 1),
            (TestImages.jpeg, .jpeg, 8, 8),
            (TestImages.progressiveJPEG, .jpeg, 8, 8),
            (TestImages.webpLossy, .webp, 8, 8),
            (TestImages.webpLossless, .webp, 8, 8),
            (TestImages.webpExtended, .webp, 4, 4),
            // A grid over one 64×64 tile: the largest `ispe` counts.
            (TestImages.heic, .heic, 64, 64),
            (TestImages.jpeg(declaring: 5000, 3000), .jpeg, 5000, 3000),
            (TestImages.webpLossless(declaring: 9000, 2), .webp, 9000, 2),
            (TestImages.webpExtended(declaring: 20000, 5), .webp, 20000, 5),
            (TestImages.heic(declaring: 6000, 7000), .heic, 6000, 7000),
        ]
        for (data, format, width, height) in cases {
            // The declared type only words a refusal: the bytes decide.
            let info = try ImageSniffer.inspect(data, declared: "application/octet-stream")
            #expect(info == ImageInfo(format: format, width: width, height: height))
            #expect(ImageSniffer.format(of: data) == format)
        }
    }

    @Test("declared types name a format whatever their case or parameters; SVG, GIF and text name none")
    func declaredNames() {
        #expect(ImageFormat(declared: "IMAGE/JPG; charset=binary") == .jpeg)
        #expect(ImageFormat(declared: " image/heif") == .heic)
        #expect(ImageFormat(declared: "image/png") == .png)
        for other in ["image/svg+xml", "image/gif", "text/html", "image/", "", "image/png-evil", "application/octet-stream"] {
            #expect(ImageFormat(declared: other) == nil, "\(other)")
        }
    }

    @Test("markup, GIF, PDF and unknown bytes are no image taken, and the refusal says what they look like")
    func notImages() {
        let markup = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>",
            "\u{FEFF}\n  <!DOCTYPE html><html><script>alert(1)</script>", "<?xml version=\"1.0\"?><svg/>",
        ]
        for text in markup {
            guard case .notAnAllowedImage("image/png", let looksLike) = Self.rejection(Data(text.utf8)) else {
                Issue.record("not refused as no image: \(text)")
                continue
            }
            #expect(looksLike?.contains("markup") == true)
        }
        let others: [(Data, String?)] = [
            (Data("GIF89a".utf8) + Data(repeating: 0, count: 40), "GIF"), (Data("%PDF-1.7\n".utf8), "PDF"),
            // AVIF is HEIF too, but not HEIC.
            (Data([0, 0, 0, 20]) + Data("ftypavif\0\0\0\0mif1".utf8), "not HEIC"),
            (Data(), nil), (Data([0x89, 0x50, 0x4E]), nil), (Data("hello".utf8), nil),
        ]
        for (data, hint) in others {
            guard case .notAnAllowedImage(_, let looksLike) = Self.rejection(data) else {
                Issue.record("not refused as no image: \(Array(data.prefix(16)))")
                continue
            }
            #expect(hint.map { looksLike?.contains($0) == true } ?? (looksLike == nil))
            #expect(ImageSniffer.format(of: data) == nil)
        }
    }

    @Test("polyglots: a signature in front of markup, or anything after the image, is refused")
    func polyglots() {
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8)
        #expect(Self.isMalformed(TestImages.pngSignature + svg, .png))
        #expect(Self.isMalformed(TestImages.png() + svg, .png))
        #expect(Self.isMalformed(Data([0xFF, 0xD8, 0xFF]) + svg, .jpeg))
        #expect(Self.isMalformed(TestImages.webpLossy + svg, .webp))
        #expect(Self.isMalformed(TestImages.heic + svg, .heic))
        // Markup first and an image inside is markup.
        guard case .notAnAllowedImage = Self.rejection(svg + TestImages.png()) else {
            Issue.record("markup with a PNG inside was not refused as markup")
            return
        }
    }

    @Test("every cut-short PNG, WebP and HEIC, and every JPEG cut before its image data, is refused")
    func truncated() {
        for (image, format) in [(TestImages.png(), ImageFormat.png), (TestImages.webpExtended, .webp), (TestImages.heic, .heic)] {
            for length in 0..<image.count {
                let prefix = image.prefix(length)
                #expect(Self.rejection(prefix) != nil, "\(format) cut to \(length) of \(image.count) bytes was taken")
            }
        }
        // The JPEG's scan header ends 12 bytes in from the end of its headers; cut anywhere
        // before the first byte of image data, it is refused.
        let jpeg = [UInt8](TestImages.jpeg)
        let scan = (2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA } ?? 0
        let dataStart = scan + 2 + (Int(jpeg[scan + 2]) << 8 | Int(jpeg[scan + 3]))
        #expect(scan > 0)
        for length in 0...dataStart {
            #expect(Self.rejection(Data(jpeg.prefix(length))) != nil, "JPEG cut to \(length) bytes was taken")
        }
    }

    @Test("hostile PNG and JPEG headers: huge lengths, zero sizes, endless fill bytes, data before the frame")
    func hostilePNGAndJPEG() {
        let ihdr = TestImages.pngChunk("IHDR", Data([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]))
        let end = TestImages.pngChunk("IEND", Data())
        var huge = TestImages.pngSignature + ihdr
        huge.append(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8) + [1, 2, 3])
        #expect(Self.isMalformed(huge, .png))
        #expect(Self.isMalformed(TestImages.pngSignature + TestImages.pngChunk("IHDR", Data(count: 13)) + end, .png))
        #expect(Self.isMalformed(TestImages.pngSignature + ihdr + end, .png), "no IDAT")
        #expect(Self.isMalformed(TestImages.pngSignature + TestImages.pngChunk("ID@T", Data()) + end, .png))
        #expect(Self.isMalformed(TestImages.pngSignature, .png))

        let soi = Data([0xFF, 0xD8])
        #expect(Self.isMalformed(soi + Data(repeating: 0xFF, count: 200_000), .jpeg), "fill bytes to the end")
        #expect(Self.isMalformed(soi + Data([0xFF, 0xE0, 0x00, 0x01]), .jpeg), "a segment shorter than its length field")
        #expect(Self.isMalformed(soi + Data([0xFF, 0xE0, 0xFF, 0xFF, 0, 0]), .jpeg), "a segment past the end")
        let noHeight = soi + Data([0xFF, 0xC0, 0x00, 0x0B, 8, 0x00, 0x00, 0x00, 0x08, 1, 1, 0x11, 0]) + Data([0xFF, 0xDA, 0, 2, 1])
        #expect(Self.isMalformed(noHeight, .jpeg), "a height left to DNL")
        #expect(Self.isMalformed(soi + Data([0xFF, 0xDA, 0x00, 0x02, 1, 2, 3]), .jpeg), "image data before any frame header")
        #expect(Self.isMalformed(soi + Data([0xFF, 0xD9]), .jpeg))
    }

    @Test("hostile WebP: lengths past the end, a RIFF length that lies, an unknown first chunk, no image data")
    func hostileWebP() {
        var lying = [UInt8](TestImages.webpLossy)
        lying.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.isMalformed(Data(lying), .webp))
        var chunk = [UInt8](TestImages.webpLossy)
        chunk.replaceSubrange(16..<20, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(Self.isMalformed(Data(chunk), .webp))
        func riff(_ body: [UInt8]) -> Data {
            Data("RIFF".utf8) + Data((0..<4).map { UInt8(truncatingIfNeeded: (body.count + 4) >> (8 * $0)) }) + Data("WEBP".utf8) + Data(body)
        }
        #expect(Self.isMalformed(riff(Array("EXIF".utf8) + [0, 0, 0, 0]), .webp), "an unknown first chunk")
        #expect(Self.isMalformed(riff(Array("VP8X".utf8) + [10, 0, 0, 0] + [UInt8](repeating: 0, count: 10)), .webp), "a canvas and no image")
        #expect(Self.isMalformed(riff(Array("VP8L".utf8) + [5, 0, 0, 0, 0x2F, 0, 0, 0, 0xE0, 0]), .webp), "a VP8L version that is not 0")
        #expect(Self.isMalformed(riff(Array("VP8 ".utf8) + [10, 0, 0, 0, 1, 0, 0, 0x9D, 0x01, 0x2A, 8, 0, 8, 0]), .webp), "not a key frame")
        #expect(Self.isMalformed(riff(Array("VP8L".utf8) + [5, 0, 0, 0, 0x2F, 0, 0, 0, 0]), .webp), "an odd chunk without its padding")
        #expect(Self.isMalformed(riff([]), .webp))
    }

    /// An HEIC around `meta`'s contents: `ftyp`, `meta` (a full box) and a small `mdat`.
    static func heic(meta: [UInt8]) -> Data {
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        return Data(ftyp + box("meta", [0, 0, 0, 0] + meta) + box("mdat", [1, 2, 3, 4]))
    }

    static func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
        let size = contents.count + 8
        return (0..<4).reversed().map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + Array(type.utf8) + contents
    }

    static let ispe = box("ispe", [0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 16])

    @Test("hostile HEIC boxes: sizes shorter than their header, 64-bit sizes past the end, zero sizes, floods")
    func hostileHEIC() throws {
        let good = Self.heic(meta: Self.box("iprp", Self.box("ipco", Self.ispe)))
        #expect(try ImageSniffer.inspect(good, declared: "image/heic") == ImageInfo(format: .heic, width: 16, height: 16))
        // A size of 0 runs to the container's end: the walk ends, it does not spin.
        let zero = Self.heic(meta: Self.box("iprp", Self.box("ipco", Self.ispe)) + [0, 0, 0, 0] + Array("free".utf8) + [9, 9])
        #expect(try ImageSniffer.inspect(zero, declared: "image/heic").width == 16)
        let hostile: [(String, [UInt8])] = [
            ("a size shorter than the header", Self.box("iprp", [0, 0, 0, 4] + Array("ipco".utf8))),
            ("a size of 1 with a 64-bit size of 8", Self.box("iprp", [0, 0, 0, 1] + Array("ipco".utf8) + [0, 0, 0, 0, 0, 0, 0, 8])),
            ("a 64-bit size past everything", Self.box("iprp", [0, 0, 0, 1] + Array("ipco".utf8) + [UInt8](repeating: 0xFF, count: 8))),
            ("a 32-bit size past its container", Self.box("iprp", [0xFF, 0xFF, 0xFF, 0xF0] + Array("ipco".utf8))),
            ("no ispe", Self.box("iprp", Self.box("ipco", []))),
            ("an ispe of 0×0", Self.box("iprp", Self.box("ipco", Self.box("ispe", [UInt8](repeating: 0, count: 12))))),
            ("a cut-short ispe", Self.box("iprp", Self.box("ipco", Self.box("ispe", [0, 0, 0, 0, 0, 0, 0, 16])))),
            ("two iprp", Self.box("iprp", Self.box("ipco", Self.ispe)) + Self.box("iprp", Self.box("ipco", Self.ispe))),
            ("5,000 empty boxes", Self.box("iprp", Self.box("ipco", Self.ispe) + (0..<5000).flatMap { _ in Self.box("free", []) })),
        ]
        for (name, meta) in hostile {
            #expect(Self.isMalformed(Self.heic(meta: meta), .heic), "\(name)")
        }
        var noData = [UInt8](good)
        noData.replaceSubrange(noData.count - 8..<noData.count - 4, with: Array("free".utf8))
        #expect(Self.isMalformed(Data(noData), .heic), "no mdat")
    }

    @Test("mutated and random bytes are read or refused, never a trap or a hang")
    func mutations() {
        var random = SeededRandom(seed: 18_006)
        let images = [TestImages.png(width: 3, height: 2), TestImages.jpeg, TestImages.webpExtended, TestImages.webpLossless, TestImages.heic]
        var outcomes = (taken: 0, refused: 0)
        for image in images {
            for index in 0..<image.count {
                for value: UInt8 in [0x00, 0xFF, UInt8(truncatingIfNeeded: random.next())] {
                    var mutated = image
                    mutated[index] = value
                    do throws(ImageRejection) {
                        let info = try ImageSniffer.inspect(mutated, declared: "image/png")
                        #expect(info.width > 0 && info.height > 0)
                        outcomes.taken += 1
                    } catch {
                        #expect(!error.message.isEmpty)
                        outcomes.refused += 1
                    }
                }
            }
        }
        for _ in 0..<2000 {
            let prefix = [TestImages.pngSignature, Data([0xFF, 0xD8, 0xFF]), Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8), TestImages.heic.prefix(28)][
                Int(random.next() % 4)]
            let tail = Data((0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            if (try? ImageSniffer.inspect(prefix + tail, declared: "image/png")) == nil { outcomes.refused += 1 } else { outcomes.taken += 1 }
        }
        // Both outcomes happen: pixel bytes change nothing a header says, header bytes do.
        #expect(outcomes.taken > 0 && outcomes.refused > 2000)
    }
}
