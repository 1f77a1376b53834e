import Foundation

/// An image format the buckets store. Only these: each is a raster format that browsers and
/// phones show as a picture and never run. SVG (markup that can carry script), GIF (animations
/// of many full frames, a decompression bomb's favourite, and no phone's camera format) and
/// every other type are refused.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, webp, heic

    /// The type an object of this format is stored and served as, whatever the upload said.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }

    /// The names clients use for it in `Content-Type` (`image/jpg` from old browsers,
    /// `image/heif` from some phones' pickers).
    var declaredNames: Set<String> {
        switch self {
        case .png: ["image/png", "image/x-png"]
        case .jpeg: ["image/jpeg", "image/jpg", "image/pjpeg"]
        case .webp: ["image/webp"]
        case .heic: ["image/heic", "image/heif"]
        }
    }

    /// The format a `Content-Type` names (parameters and case ignored), or `nil`.
    public init?(declared contentType: String) {
        let bare = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let name = bare.trimmingCharacters(in: .whitespaces).lowercased()
        guard let format = Self.allCases.first(where: { $0.declaredNames.contains(name) }) else { return nil }
        self = format
    }

    /// How the formats are listed in refusals.
    static let listed = "PNG, JPEG, WebP or HEIC"
}

/// The largest picture a bucket stores, in pixels. Bytes are capped by the bucket; a few
/// kilobytes can still declare 60,000 × 60,000 pixels, which every client that shows the
/// avatar would have to decode (gigabytes of memory), so the size is capped as well.
public struct ImageLimits: Sendable, Hashable {
    public var maximumWidth: Int
    public var maximumHeight: Int

    /// 4096 × 4096: a 12-megapixel phone photo (4032 × 3024) fits without resizing; a
    /// decoded picture at this size is at most 64 MB.
    public static let standard = ImageLimits(maximumWidth: 4096, maximumHeight: 4096)

    public init(maximumWidth: Int, maximumHeight: Int) {
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
    }
}

/// What an image's header says.
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// Why an upload's bytes were not stored.
public enum ImageRejection: Error, Sendable, Hashable {
    /// The bytes are none of the formats taken; `looksLike` names what they seem to be.
    case notAnAllowedImage(declared: String, looksLike: String?)
    /// The bytes are one format, the upload declared another.
    case mismatch(declared: String, actual: ImageFormat)
    /// The bytes begin as `format` but its header is cut short or malformed, so its size
    /// cannot be read.
    case malformed(ImageFormat, String)
    /// Wider or taller than the limit.
    case tooLarge(width: Int, height: Int, limit: ImageLimits)

    /// The sentence a client is shown.
    public var message: String {
        switch self {
        case .notAnAllowedImage(let declared, let looksLike):
            "The file's bytes are not a \(ImageFormat.listed) image" + (looksLike.map { " (they look like \($0))" } ?? "")
                + "; it was sent as \(declared)"
        case .mismatch(let declared, let actual):
            "The file was sent as \(declared) but its bytes are \(actual.mimeType)"
        case .malformed(let format, let why):
            "The file is not a readable \(format.mimeType): \(why)"
        case .tooLarge(let width, let height, let limit):
            "The image is \(width)×\(height) pixels; at most \(limit.maximumWidth)×\(limit.maximumHeight) are accepted"
        }
    }
}
