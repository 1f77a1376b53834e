extension QRCode {
    /// The symbol as a standalone SVG document.
    ///
    /// The coordinates are modules (the `viewBox` spans the symbol and its quiet zone), and
    /// `width` and `height` scale them to `moduleSize` pixels each, so the picture stays sharp
    /// at any zoom. One `<path>` draws every dark module, each horizontal run as one rectangle:
    /// about 3 kB for a link (version 3), several times less than a `<rect>` per dark module.
    /// `shape-rendering="crispEdges"` keeps renderers from antialiasing the seams between
    /// rectangles into grey lines that a camera might read as light modules.
    ///
    /// Colours are attributes, never `style`: the pages that embed this forbid inline styles
    /// in their Content-Security-Policy.
    ///
    /// - Parameters:
    ///   - moduleSize: pixels per module in `width` and `height` (at least 1).
    ///   - quietZone: light modules around the symbol (at least 0; the standard asks for 4).
    ///   - title: the accessible name, as the SVG's `<title>` (escaped for XML).
    public func svg(moduleSize: Int = 8, quietZone: Int = 4, title: String? = nil) -> String {
        let moduleSize = max(1, moduleSize)
        let quietZone = max(0, quietZone)
        let extent = size + 2 * quietZone
        let pixels = extent * moduleSize
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(extent) \(extent)" width="\(pixels)" height="\(pixels)" \
            role="img" shape-rendering="crispEdges">
            """
        if let title {
            svg += "<title>\(XMLText.escape(title))</title>"
        }
        svg += "<rect width=\"\(extent)\" height=\"\(extent)\" fill=\"#fff\"/>"
        svg += "<path fill=\"#000\" d=\"\(pathData(offset: quietZone))\"/>"
        svg += "</svg>"
        return svg
    }

    /// The path's `d`: for each run of dark modules in a row, `M x y h n v1 h-n z`.
    func pathData(offset: Int) -> String {
        var commands: [String] = []
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                let length = x - start
                commands.append("M\(start + offset) \(y + offset)h\(length)v1h-\(length)z")
            }
        }
        return commands.joined()
    }
}

/// Escaping for text in XML content or attribute values.
enum XMLText {
    /// `text` with the five markup characters as entities, and the characters XML 1.0 cannot
    /// hold at all (most C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD, so any title makes
    /// a well-formed document.
    static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
