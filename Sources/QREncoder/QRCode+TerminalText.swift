extension QRCode {
    /// The symbol as text for a terminal: each character is two modules, one above the
    /// other, drawn with the half blocks `▀` `▄` `█` and a space, so the symbol keeps its
    /// square shape (a character cell is about twice as tall as it is wide) and fits on
    /// screen.
    ///
    /// A block is drawn in the terminal's text colour and a space shows its background. By
    /// default blocks are the dark modules, which reads right on a light background; on a
    /// dark background (light text), pass `inverted: true` so the blocks are the light
    /// modules and the quiet zone, and the background shows through as the dark modules. A
    /// camera wants dark on light, and many cannot read a symbol inverted.
    ///
    /// - Parameters:
    ///   - quietZone: light modules around the symbol (at least 0). Terminals already frame
    ///     text with some background, so the default is 2 rather than the standard's 4.
    ///   - inverted: draw the light modules rather than the dark ones.
    /// - Returns: `(size + 2 * quietZone + 1) / 2` lines of `size + 2 * quietZone`
    ///   characters, joined by newlines, with no newline after the last. When the height is
    ///   odd, the last line's lower half is more quiet zone.
    public func terminalText(quietZone: Int = 2, inverted: Bool = false) -> String {
        let quietZone = max(0, quietZone)
        let extent = size + 2 * quietZone
        var lines: [String] = []
        lines.reserveCapacity((extent + 1) / 2)
        for top in stride(from: 0, to: extent, by: 2) {
            var line = ""
            for column in 0..<extent {
                let x = column - quietZone
                // Outside the symbol (the quiet zone, or the row below an odd height) is light.
                let upper = self[x, top - quietZone] != inverted
                let lower = self[x, top + 1 - quietZone] != inverted
                switch (upper, lower) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
