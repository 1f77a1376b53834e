/// WebP (RIFF chunks) and HEIC (ISO base media boxes): formats whose size is in a chunk or
/// box that has to be found by walking the file's structure.
extension ImageSniffer {
    // MARK: WebP

    /// Walks every top-level RIFF chunk to the end of the file, which the RIFF header's length
    /// must name exactly. The size is the largest of the canvas (`VP8X`), the bitstreams'
    /// own (`VP8 `, `VP8L`) and the animation frames' (`ANMF`), so a small canvas cannot hide a
    /// large frame.
    static func webpSize(_ bytes: ImageBytes) throws(HeaderError) -> (Int, Int) {
        let riffLength = try bytes.u32le(4, "the RIFF length")
        guard riffLength == bytes.count - 8 else {
            throw HeaderError("the RIFF header declares \(riffLength) bytes, the file holds \(bytes.count - 8)")
        }
        var offset = 12
        var width = 0
        var height = 0
        var sawImage = false
        while offset < bytes.count {
            let type = try bytes.fourCC(offset, "a chunk's type")
            let length = try bytes.u32le(offset + 4, "a chunk's length")
            guard length <= bytes.count - offset - 8 else { throw HeaderError("chunk \(type) declares \(length) bytes, past the end of the file") }
            let data = offset + 8
            if offset == 12, !["VP8 ", "VP8L", "VP8X"].contains(type) {
                throw HeaderError("the first chunk is \(type), not VP8, VP8L or VP8X")
            }
            let size: (Int, Int)? =
                switch type {
                case "VP8 ": try vp8Size(bytes, data, length)
                case "VP8L": try vp8lSize(bytes, data, length)
                case "VP8X": try vp8xSize(bytes, data, length)
                case "ANMF": try anmfSize(bytes, data, length)
                default: nil
                }
            if let size {
                width = max(width, size.0)
                height = max(height, size.1)
                sawImage = sawImage || type != "VP8X"
            }
            // A chunk of odd length is followed by one padding byte.
            let padded = length + (length & 1)
            guard padded <= bytes.count - data else { throw HeaderError("chunk \(type) lacks its padding byte") }
            offset = data + padded
        }
        guard sawImage else { throw HeaderError("no image data (VP8, VP8L or ANMF chunk)") }
        return (width, height)
    }

    /// A lossy key frame: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit sizes.
    static func vp8Size(_ bytes: ImageBytes, _ data: Int, _ length: Int) throws(HeaderError) -> (Int, Int) {
        guard length >= 10 else { throw HeaderError("the VP8 chunk is \(length) bytes") }
        guard try bytes.u8(data, "the frame tag") & 1 == 0 else { throw HeaderError("the VP8 frame is not a key frame") }
        guard bytes.matches([0x9D, 0x01, 0x2A], at: data + 3) else { throw HeaderError("the VP8 start code is missing") }
        let width = try bytes.u16le(data + 6, "the width") & 0x3FFF
        let height = try bytes.u16le(data + 8, "the height") & 0x3FFF
        guard width > 0, height > 0 else { throw HeaderError("the VP8 frame declares \(width)×\(height) pixels") }
        return (width, height)
    }

    /// A lossless image: the signature 0x2F, then width − 1 and height − 1 in 14 bits each and
    /// a 3-bit version that must be 0.
    static func vp8lSize(_ bytes: ImageBytes, _ data: Int, _ length: Int) throws(HeaderError) -> (Int, Int) {
        guard length >= 5 else { throw HeaderError("the VP8L chunk is \(length) bytes") }
        guard try bytes.u8(data, "the VP8L signature") == 0x2F else { throw HeaderError("the VP8L signature is missing") }
        let bits = try bytes.u32le(data + 1, "the VP8L size")
        guard bits >> 29 == 0 else { throw HeaderError("the VP8L version is \(bits >> 29), not 0") }
        return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
    }

    /// The extended format's canvas: flags, 3 reserved bytes, then width − 1 and height − 1
    /// in 24 bits each.
    static func vp8xSize(_ bytes: ImageBytes, _ data: Int, _ length: Int) throws(HeaderError) -> (Int, Int) {
        guard length >= 10 else { throw HeaderError("the VP8X chunk is \(length) bytes") }
        return (try bytes.u24le(data + 4, "the canvas width") + 1, try bytes.u24le(data + 7, "the canvas height") + 1)
    }

    /// An animation frame: x and y offsets, then width − 1 and height − 1, 24 bits each.
    static func anmfSize(_ bytes: ImageBytes, _ data: Int, _ length: Int) throws(HeaderError) -> (Int, Int) {
        guard length >= 16 else { throw HeaderError("an ANMF chunk is \(length) bytes") }
        return (try bytes.u24le(data + 6, "a frame's width") + 1, try bytes.u24le(data + 9, "a frame's height") + 1)
    }

    // MARK: HEIC

    /// A box: its type and where its contents (after the header) begin and end.
    struct Box {
        let type: String
        let contents: Range<Int>
    }

    /// Boxes in one container, at most this many: each is at least 8 bytes, so the walk is
    /// bounded anyway; this bounds the list it returns.
    static let maximumBoxes = 4096

    /// The boxes that tile `range` exactly. A size of 0 runs to the container's end, 1 is
    /// followed by a 64-bit size; any size shorter than the box's own header or longer than
    /// what is left (the sizes that make naive readers loop or overrun) is refused.
    static func boxes(_ bytes: ImageBytes, in range: Range<Int>) throws(HeaderError) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            let left = range.upperBound - offset
            guard left >= 8 else { throw HeaderError("a box header is cut short") }
            let declared = try bytes.u32be(offset, "a box's size")
            let type = try bytes.fourCC(offset + 4, "a box's type")
            var header = 8
            let size: Int
            switch declared {
            case 0: size = left
            case 1:
                guard left >= 16 else { throw HeaderError("box \(type)'s 64-bit size is cut short") }
                let large = try bytes.u64be(offset + 8, "a box's 64-bit size")
                header = 16
                guard large <= UInt64(left) else { throw HeaderError("box \(type) declares \(large) bytes, past its container") }
                size = Int(large)
            default: size = declared
            }
            guard size >= header else { throw HeaderError("box \(type) declares \(size) bytes, less than its own header") }
            guard size <= left else { throw HeaderError("box \(type) declares \(size) bytes, past its container") }
            guard found.count < maximumBoxes else { throw HeaderError("more than \(maximumBoxes) boxes in one container") }
            found.append(Box(type: type, contents: offset + header..<offset + size))
            offset += size
        }
        return found
    }

    /// The one box of `type` among `boxes`, whose contents skip a full box's version and flags
    /// when `full`.
    static func only(_ type: String, in boxes: [Box], full: Bool = false) throws(HeaderError) -> Range<Int> {
        let matching = boxes.filter { $0.type == type }
        guard matching.count == 1, let box = matching.first else {
            throw HeaderError("\(matching.count) \(type) boxes where one is needed")
        }
        guard !full else {
            guard box.contents.count >= 4 else { throw HeaderError("the \(type) box is cut short") }
            return box.contents.lowerBound + 4..<box.contents.upperBound
        }
        return box.contents
    }

    /// The largest image spatial extents (`ispe`) among the item properties
    /// (`meta` › `iprp` › `ipco`). Every image item has one, the primary image, its tiles and
    /// thumbnails alike, so the largest is at least the primary picture's size. The path is
    /// fixed, so there is no recursion for a file to nest deeper.
    static func heicSize(_ bytes: ImageBytes) throws(HeaderError) -> (Int, Int) {
        let top = try boxes(bytes, in: 0..<bytes.count)
        guard top.first?.type == "ftyp" else { throw HeaderError("the file does not begin with an ftyp box") }
        // The coded picture lives in `mdat`; without it the file is a description of nothing
        // (or an image cut off after its header).
        guard top.contains(where: { $0.type == "mdat" }) else { throw HeaderError("no mdat box holds the image data") }
        let meta = try boxes(bytes, in: try only("meta", in: top, full: true))
        let properties = try boxes(bytes, in: try only("iprp", in: meta))
        let extents = try boxes(bytes, in: try only("ipco", in: properties)).filter { $0.type == "ispe" }
        guard !extents.isEmpty else { throw HeaderError("no ispe box gives the image's size") }
        var width = 0
        var height = 0
        for extent in extents {
            // A full box: version and flags, then width and height in 32 bits each.
            guard extent.contents.count >= 12 else { throw HeaderError("an ispe box is cut short") }
            let w = try bytes.u32be(extent.contents.lowerBound + 4, "an ispe width")
            let h = try bytes.u32be(extent.contents.lowerBound + 8, "an ispe height")
            guard w > 0, h > 0 else { throw HeaderError("an ispe box declares \(w)×\(h) pixels") }
            width = max(width, w)
            height = max(height, h)
        }
        return (width, height)
    }
}
