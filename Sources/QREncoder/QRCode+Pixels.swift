extension QRCode {
    /// The symbol as 8-bit grayscale pixels, row by row, 0 for dark and 255 for light:
    /// what a barcode decoder takes as input, so tests can hand a symbol to an independent
    /// reader.
    ///
    /// - Parameters:
    ///   - moduleSize: pixels per module, across and down (at least 1).
    ///   - quietZone: light modules around the symbol (at least 0; the standard asks for 4).
    public func grayscalePixels(moduleSize: Int = 4, quietZone: Int = 4) -> (width: Int, height: Int, pixels: [UInt8]) {
        let moduleSize = max(1, moduleSize)
        let quietZone = max(0, quietZone)
        let side = (size + 2 * quietZone) * moduleSize
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<size {
            for x in 0..<size where self[x, y] {
                let left = (x + quietZone) * moduleSize
                for row in (y + quietZone) * moduleSize..<(y + quietZone + 1) * moduleSize {
                    let start = row * side + left
                    for index in start..<start + moduleSize { pixels[index] = 0 }
                }
            }
        }
        return (side, side, pixels)
    }

    /// The symbol as a binary PGM image (Netpbm P5, 8 bits per pixel): the simplest picture
    /// format every image library reads, with no compression to get wrong.
    public func pgm(moduleSize: Int = 4, quietZone: Int = 4) -> [UInt8] {
        let image = grayscalePixels(moduleSize: moduleSize, quietZone: quietZone)
        return Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }
}
