/// The square of modules while a symbol is built: which are dark, and which belong to a
/// function pattern (finders, separators, timing, alignment, format and version
/// information), so data placement and masking leave those alone (ISO/IEC 18004, 6.3).
struct ModuleGrid: Sendable, Hashable {
    let version: Int
    let size: Int
    /// Row by row, `true` for dark. Data placement and masking set it directly; function
    /// patterns go through `setFunction`, which also marks them.
    var modules: [Bool]
    /// Row by row, `true` for a module of a function pattern.
    private(set) var isFunction: [Bool]

    /// A grid with every function pattern drawn and the format information's modules
    /// reserved (they are drawn once the mask is known).
    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = [Bool](repeating: false, count: size * size)
        isFunction = [Bool](repeating: false, count: size * size)
        drawTimingPatterns()
        drawFinderPatterns()
        drawAlignmentPatterns()
        // Reserve the format areas now, with any bits, so data placement skips them.
        drawFormatInformation(errorCorrection: .medium, mask: 0)
        drawVersionInformation()
    }

    subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    func isFunction(x: Int, y: Int) -> Bool { isFunction[y * size + x] }

    private mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    // MARK: - Function patterns

    /// Row 6 and column 6 alternate dark and light (6.3.5), so a decoder can count modules;
    /// drawn first because the finders overwrite their ends.
    private mutating func drawTimingPatterns() {
        for index in 0..<size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
    }

    /// The three 7×7 finder patterns (a 3×3 dark centre in a light ring in a dark ring) in
    /// three corners, each with its light separator (6.3.3, 6.3.4).
    private mutating func drawFinderPatterns() {
        for (left, top) in [(0, 0), (size - 7, 0), (0, size - 7)] {
            for dy in -1...7 {
                for dx in -1...7 {
                    let x = left + dx
                    let y = top + dy
                    guard x >= 0, y >= 0, x < size, y < size else { continue }
                    // The distance from the centre, in rings: 0...1 dark core, 2 light ring,
                    // 3 dark ring, 4 the separator.
                    let ring = max(abs(dx - 3), abs(dy - 3))
                    setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
                }
            }
        }
    }

    /// 5×5 alignment patterns (a dark centre, a light ring, a dark ring) at every pair of
    /// Table E.1's coordinates except the three corners the finders hold (6.3.6).
    private mutating func drawAlignmentPatterns() {
        let centers = SymbolTables.alignmentPatternCenters[version - 1]
        guard let first = centers.first, let last = centers.last else { return }
        for cy in centers {
            for cx in centers {
                if (cx == first && cy == first) || (cx == first && cy == last) || (cx == last && cy == first) { continue }
                for dy in -2...2 {
                    for dx in -2...2 {
                        setFunction(x: cx + dx, y: cy + dy, dark: max(abs(dx), abs(dy)) != 1)
                    }
                }
            }
        }
    }

    /// The 15 format bits, twice: around the top-left finder, and split between the other two
    /// finders, so a decoder can read them even if one copy is damaged (7.9). Also the dark
    /// module beside the bottom-left finder, which is always dark.
    mutating func drawFormatInformation(errorCorrection: QRCode.ErrorCorrection, mask: Int) {
        let bits = FormatInformation.bits(errorCorrection: errorCorrection, mask: mask)
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        // First copy: bits 0...7 down column 8 (skipping the timing row), 8...14 leftwards
        // along row 8 (skipping the timing column).
        for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
        // Second copy: bits 0...7 leftwards from the right edge along row 8, 8...14 down
        // column 8 to the bottom edge.
        for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// From version 7, the 18 version bits twice: a 6×3 block above the bottom-left finder
    /// and its transpose left of the top-right one (7.10).
    private mutating func drawVersionInformation() {
        guard version >= 7 else { return }
        let bits = VersionInformation.bits(version: version)
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let across = size - 11 + index % 3
            let down = index / 3
            setFunction(x: across, y: down, dark: dark)
            setFunction(x: down, y: across, dark: dark)
        }
    }
}
