import Foundation

/// Tells an upload's format from its bytes and reads its size from its header.
///
/// The `Content-Type` a client sends and a file's name are the uploader's to choose, so they
/// decide nothing: an object is stored and served as the type its bytes are. The headers are
/// read with ``ImageBytes``, whose reads are bounds-checked; every loop here moves forward by
/// at least one byte a turn, and a box or chunk whose declared length is shorter than its own
/// header or longer than what is left is refused, so no input can loop, trap or overflow.
/// Nothing is decoded: the pixels are never touched.
public enum ImageSniffer {
    /// The format the leading bytes announce, checking nothing further (a download uses it to
    /// serve an object as what it is, whatever was recorded).
    public static func format(of data: Data) -> ImageFormat? {
        format(of: ImageBytes(Array(data.prefix(256))))
    }

    /// The image's format and size, or why it is not an image the buckets take. `declared`
    /// (the upload's `Content-Type`) only words the refusal; the bytes decide.
    public static func inspect(_ data: Data, declared: String) throws(ImageRejection) -> ImageInfo {
        let bytes = ImageBytes(Array(data))
        guard let format = Self.format(of: bytes) else {
            throw .notAnAllowedImage(declared: declared, looksLike: looksLike(bytes))
        }
        do throws(HeaderError) {
            let (width, height) =
                switch format {
                case .png: try pngSize(bytes)
                case .jpeg: try jpegSize(bytes)
                case .webp: try webpSize(bytes)
                case .heic: try heicSize(bytes)
                }
            return ImageInfo(format: format, width: width, height: height)
        } catch {
            throw .malformed(format, error.reason)
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func format(of bytes: ImageBytes) -> ImageFormat? {
        if bytes.matches(pngSignature, at: 0) { return .png }
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if bytes.matches("RIFF", at: 0), bytes.matches("WEBP", at: 8) { return .webp }
        if heifBrands(bytes).contains(where: heicBrands.contains) { return .heic }
        return nil
    }

    /// Brands of still HEVC-coded HEIF images (ISO/IEC 23008-12): what a phone's camera writes.
    static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis"]

    /// The major and compatible brands of a leading `ftyp` box; empty when there is none.
    /// A camera's `ftyp` is a few dozen bytes; one past 256 is not taken for an image (a
    /// download sniffs only the first 256 bytes, and the list is then bounded).
    static func heifBrands(_ bytes: ImageBytes) -> [String] {
        guard bytes.matches("ftyp", at: 4), let size = try? bytes.u32be(0, "the ftyp size"),
            (16...256).contains(size), size % 4 == 0, bytes.contains(size, at: 0)
        else { return [] }
        // Major brand at 8, minor version at 12, compatible brands from 16 to the box's end.
        return stride(from: 8, to: size, by: 4).filter { $0 != 12 }.compactMap { try? bytes.fourCC($0, "a brand") }
    }

    /// A name for bytes that are no image taken, so the refusal says what was sent.
    static func looksLike(_ bytes: ImageBytes) -> String? {
        if bytes.matches("GIF87a", at: 0) || bytes.matches("GIF89a", at: 0) { return "a GIF image, which is not taken" }
        if bytes.matches("%PDF-", at: 0) { return "a PDF document" }
        if bytes.matches("BM", at: 0) { return "a BMP image, which is not taken" }
        if !heifBrands(bytes).isEmpty { return "a HEIF file that is not HEIC (AVIF or an image sequence)" }
        // Markup (SVG, HTML, XML) may open with a byte-order mark and white space.
        let text = bytes.raw.prefix(1024).drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if text.first == UInt8(ascii: "<") { return "markup (SVG, HTML or XML), which can carry script" }
        return nil
    }

    // MARK: PNG

    /// Walks every chunk from `IHDR` to `IEND` (which must end the file, after at least one
    /// `IDAT`), so a PNG signature in front of something else, or anything appended after the
    /// image, is refused. Chunk checksums are not verified: a bad one spoils the picture for
    /// whoever decodes it, not the server or the page showing it.
    static func pngSize(_ bytes: ImageBytes) throws(HeaderError) -> (Int, Int) {
        var offset = pngSignature.count
        var size: (Int, Int)?
        var sawData = false
        while true {
            let length = try bytes.u32be(offset, "a chunk's length")
            let type = try bytes.fourCC(offset + 4, "a chunk's type")
            guard type.allSatisfy({ $0.isASCII && $0.isLetter }) else { throw HeaderError("a chunk's type is not four letters") }
            guard length <= 0x7FFF_FFFF, length <= bytes.count - offset - 12 else {
                throw HeaderError("chunk \(type) declares \(length) bytes, past the end of the file")
            }
            if size == nil {
                guard type == "IHDR", length == 13 else { throw HeaderError("the first chunk is \(type), not a 13-byte IHDR") }
                let width = try bytes.u32be(offset + 8, "the width")
                let height = try bytes.u32be(offset + 12, "the height")
                guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
                    throw HeaderError("IHDR declares \(width)×\(height) pixels")
                }
                size = (width, height)
            }
            sawData = sawData || type == "IDAT"
            offset += 12 + length
            guard type == "IEND" else { continue }
            guard let size, sawData else { throw HeaderError("IEND comes before any IDAT") }
            guard offset == bytes.count else { throw HeaderError("\(bytes.count - offset) bytes follow IEND") }
            return size
        }
    }

    // MARK: JPEG

    /// Walks the segments after `SOI` to the start of the image data (`SOS`), taking the size
    /// from the first frame header (`SOFn`, or `DHP` of a hierarchical JPEG, which gives the
    /// whole picture's size). The compressed data after `SOS` is not walked: a JPEG's trailer
    /// often carries more (a phone's depth map), and the served type and headers, not the
    /// trailer, keep a browser from reading it as anything but a picture.
    static func jpegSize(_ bytes: ImageBytes) throws(HeaderError) -> (Int, Int) {
        var offset = 2
        var size: (Int, Int)?
        while true {
            guard try bytes.u8(offset, "a marker") == 0xFF else { throw HeaderError("byte \(offset) is not a marker") }
            var marker = 0xFF
            // Any number of 0xFF fill bytes may precede a marker's code; each turn moves on.
            while marker == 0xFF {
                offset += 1
                marker = try bytes.u8(offset, "a marker's code")
            }
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7: continue
            case 0x00, 0xD8, 0xD9: throw HeaderError("marker \(hex(marker)) before the image data")
            default: break
            }
            let length = try bytes.u16be(offset, "a segment's length")
            guard length >= 2, length <= bytes.count - offset else { throw HeaderError("segment \(hex(marker)) declares \(length) bytes") }
            if marker == 0xDA {
                guard let size else { throw HeaderError("the image data begins before any frame header") }
                guard length < bytes.count - offset else { throw HeaderError("no image data follows the scan header") }
                return size
            }
            if size == nil, isFrameHeader(marker) {
                guard length >= 8 else { throw HeaderError("the frame header is \(length) bytes") }
                let height = try bytes.u16be(offset + 3, "the height")
                let width = try bytes.u16be(offset + 5, "the width")
                guard width > 0 else { throw HeaderError("the frame header declares a width of 0") }
                // A height of 0 is left to a DNL marker after the first scan, which is not read.
                guard height > 0 else { throw HeaderError("the height is given only after the image data (DNL)") }
                size = (width, height)
            }
            offset += length
        }
    }

    static func hex(_ marker: Int) -> String {
        let digits = String(marker, radix: 16, uppercase: true)
        return "0xFF" + (digits.count < 2 ? "0" : "") + digits
    }

    /// SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC), and DHP (DE).
    static func isFrameHeader(_ marker: Int) -> Bool {
        ((0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)) || marker == 0xDE
    }
}

extension ImageSniffer {
    /// The bytes as a picture of the format `declared` names, within `limits`: the check the
    /// storage server makes, public so that a client checks a file the same way before
    /// sending it.
    ///
    /// - Precondition: `declared` names an ``ImageFormat`` (`ImageFormat(declared:)`); the
    ///   caller refuses other types in its own words first.
    public static func check(_ data: Data, declared: String, limits: ImageLimits) throws(ImageRejection) -> ImageInfo {
        let image = try inspect(data, declared: declared)
        if let named = ImageFormat(declared: declared), image.format != named {
            throw .mismatch(declared: declared, actual: image.format)
        }
        guard image.width <= limits.maximumWidth, image.height <= limits.maximumHeight else {
            throw .tooLarge(width: image.width, height: image.height, limit: limits)
        }
        return image
    }
}
