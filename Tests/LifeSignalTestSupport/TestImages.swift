import Foundation

/// Small real pictures for storage tests: the server stores an upload only when its bytes are
/// a PNG, JPEG, WebP or HEIC image whose header it can read, so tests upload these rather than
/// a signature followed by filler.
///
/// PNGs are built here, pixel by pixel (stored deflate blocks, real CRCs), at any size. The
/// others were made once with Debian's encoders from an 8×8 gradient and are kept as bytes;
/// each decodes with its reference decoder (`djpeg`, `dwebp`, `heif-convert`). The
/// `declaring` variants change only the size a header states, for tests of the size limit.
public enum TestImages {
    public static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// A `width`×`height` RGB PNG; `shade` changes every pixel, so two calls with different
    /// shades give different files of the same size.
    public static func png(width: Int = 2, height: Int = 2, shade: UInt8 = 0) -> Data {
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
        var pixels = Data()
        for y in 0..<height {
            pixels.append(0)  // the row's filter: none
            for x in 0..<width {
                pixels.append(contentsOf: [UInt8(truncatingIfNeeded: x &* 37) &+ shade, UInt8(truncatingIfNeeded: y &* 53), shade])
            }
        }
        return pngSignature + pngChunk("IHDR", header) + pngChunk("IDAT", zlibStored(pixels)) + pngChunk("IEND", Data())
    }

    /// A PNG chunk: length, type, data and the CRC over type and data.
    public static func pngChunk(_ type: String, _ data: Data) -> Data {
        var chunk = Data()
        chunk.appendBigEndian(UInt32(data.count))
        let typed = Data(type.utf8) + data
        chunk.append(typed)
        chunk.appendBigEndian(crc32(typed))
        return chunk
    }

    /// An 8×8 baseline JPEG (libjpeg-turbo `cjpeg -quality 50`).
    public static let jpeg = decode([
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1R",
        "V19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj",
        "Y2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA",
        "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6",
        "Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG",
        "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA",
        "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5",
        "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPE",
        "xcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwBLUR6DpYn2xtcv8sETZ+c9zx2HU/lkZFFF",
        "FAH/2Q==",
    ])

    /// The same picture as a progressive JPEG (`cjpeg -progressive`).
    public static let progressiveJPEG = decode([
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhl",
        "bXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8",
        "fHx8fHx8fHx8fHx8fHz/wgARCAAIAAgDASIAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQBAQAAAAAAAAAAAAAA",
        "AAAAAAD/2gAMAwEAAhADEAAAAQP/xAAWEAADAAAAAAAAAAAAAAAAAAACAyP/2gAIAQEAAQUCGK//xAAUEQEAAAAAAAAAAAAA",
        "AAAAAAAA/9oACAEDAQE/AX//xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAECAQE/AX//xAAXEAADAQAAAAAAAAAAAAAAAAAA",
        "AUER/9oACAEBAAY/AtsR/8QAGRAAAQUAAAAAAAAAAAAAAAAAAQARITFB/9oACAEBAAE/IWQQTs1f/9oADAMBAAIAAwAAABAD",
        "/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAgBAwEBPxB//8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAgBAgEBPxB//8QAGhAA",
        "AgIDAAAAAAAAAAAAAAAAATEAQVFxof/aAAgBAQABPxABEVcZ0Hy5/9k=",
    ])

    /// An 8×8 lossy WebP, a bare `VP8 ` chunk (`cwebp -q 50`).
    public static let webpLossy = decode([
        "UklGRkYAAABXRUJQVlA4IDoAAACwAQCdASoIAAgAAsBMJaQAApzbxMkIAP7qWpI/sar1gfgMXPjiiBKRaRHj9yY9ZToaOnKI",
        "L7MuoAAA",
    ])

    /// An 8×8 lossless WebP, a bare `VP8L` chunk (`cwebp -lossless`).
    public static let webpLossless = decode([
        "UklGRiYAAABXRUJQVlA4TBoAAAAvB8ABAM1kRP8DRNo2EzE8/0LPbiAiJoC2Nw=="
    ])

    /// A 4×4 WebP with transparency: `VP8X`, `ALPH`, `VP8 ` (`cwebp` of an RGBA PNG).
    public static let webpExtended = decode([
        "UklGRm4AAABXRUJQVlA4WAoAAAAQAAAAAwAAAwAAQUxQSAwAAAABD/DA/4iI0IGI/gdWUDggPAAAABACAJ0BKgQABAACwEwl",
        "oAJ0TIAB1a3DbAAA/tJtBbyagbVFA866bj+mayNv3EBvcr4w6c3NRUGPOkAAAA==",
    ])

    /// An 8×8 HEIC (libheif `heif-enc`, x265): a grid item over one 64×64 tile, so two `ispe` boxes.
    public static let heic = decode([
        "AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAA",
        "AAAAAA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAAgACAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAAAQgACAAEA",
        "AAAAAAAAAQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAA",
        "AADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAe",
        "ugJAIQABACpCAQEDcAAAAwCQAAADAAADAB6gIIEFluqumubgQEDAgAAAAwCAAAADAIQiAAEABkQBwXPBiQAAABRpc3BlAAAA",
        "AAAAAEAAAABAAAAAFGlzcGUAAAAAAAAACAAAAAgAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QA",
        "AAAaaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAAEptZGF0AAAAPigBrxkheMJA/EE3w31DGL+h3JoQCR6FyGmwWuTUcBIctqjO",
        "+MDy8Gfk4cq6Ed+9JbvUscjslsAWZ6FTkYCq",
    ])

    /// ``jpeg`` with its frame header declaring `width`×`height`.
    public static func jpeg(declaring width: Int, _ height: Int) -> Data {
        var bytes = [UInt8](jpeg)
        var offset = 2
        // Segments after SOI: marker, then a big-endian length that counts itself.
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xC0 {
                bytes.replaceSubrange(offset + 5..<offset + 9, with: be16(height) + be16(width))
                break
            }
            offset += 2 + length
        }
        return Data(bytes)
    }

    /// ``webpLossless`` with its `VP8L` header declaring `width`×`height` (at most 16384 each).
    public static func webpLossless(declaring width: Int, _ height: Int) -> Data {
        var bytes = [UInt8](webpLossless)
        let old = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
        let bits = old & ~0x0FFF_FFFF | UInt32(width - 1) & 0x3FFF | (UInt32(height - 1) & 0x3FFF) << 14
        bytes.replaceSubrange(21..<25, with: (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) })
        return Data(bytes)
    }

    /// ``webpExtended`` with its `VP8X` canvas declaring `width`×`height`.
    public static func webpExtended(declaring width: Int, _ height: Int) -> Data {
        var bytes = [UInt8](webpExtended)
        bytes.replaceSubrange(24..<30, with: le24(width - 1) + le24(height - 1))
        return Data(bytes)
    }

    /// ``heic`` with every `ispe` box declaring `width`×`height`.
    public static func heic(declaring width: Int, _ height: Int) -> Data {
        var bytes = [UInt8](heic)
        let type = Array("ispe".utf8)
        for start in 0..<(bytes.count - 16) where Array(bytes[start..<start + 4]) == type {
            // Type, then version and flags, then width and height in 32 bits each.
            bytes.replaceSubrange(start + 8..<start + 16, with: be32(width) + be32(height))
        }
        return Data(bytes)
    }

    // MARK: Encoding

    static func decode(_ lines: [String]) -> Data {
        // Fixed text in this file: a bad line fails every test that uploads it, loudly.
        Data(base64Encoded: lines.joined()) ?? Data("not base64".utf8)
    }

    /// Deflate's stored (uncompressed) blocks in a zlib stream: valid for every decoder.
    static func zlibStored(_ data: Data) -> Data {
        var stream = Data([0x78, 0x01])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + length == bytes.count ? 1 : 0
            stream.append(last)
            stream.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
            stream.append(contentsOf: bytes[offset..<offset + length])
            offset += length
        } while offset < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        stream.appendBigEndian(b << 16 | a)
        return stream
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
    static func le24(_ value: Int) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }
}
