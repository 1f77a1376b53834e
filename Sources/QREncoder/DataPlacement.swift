extension ModuleGrid {
    /// Writes the codewords' bits into every module that is not a function pattern, most
    /// significant bit first (ISO/IEC 18004, 7.7.3).
    ///
    /// The path runs in two-module-wide columns from the right edge to the left, up the first,
    /// down the next, and so on; within a column, right module before left. Column 6 is the
    /// vertical timing pattern, so the column pair that would straddle it shifts left by one.
    /// Modules left over once the codewords end (the remainder bits, 0 to 7 of them) stay
    /// light, which is the zero bits the standard asks for.
    mutating func place(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bit = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in stride(from: right, through: right - 1, by: -1) where !isFunction(x: x, y: y) && bit < bitCount {
                    let byte = codewords[bit >> 3]
                    modules[y * size + x] = (byte >> (7 - UInt8(bit & 7))) & 1 == 1
                    bit += 1
                }
            }
            right -= 2
        }
    }

    /// Inverts every data module where the mask's condition holds (7.8.2). Applying the same
    /// mask twice restores the grid.
    mutating func applyMask(_ mask: Int) {
        var index = 0
        for y in 0..<size {
            for x in 0..<size {
                if !isFunction[index] && Self.maskCondition(mask, row: y, column: x) { modules[index].toggle() }
                index += 1
            }
        }
    }

    /// The standard's eight data mask conditions (7.8.2), with i the row and j the column.
    /// Masks break up areas and patterns in the data that would confuse a decoder, such as
    /// something that looks like a finder pattern.
    static func maskCondition(_ mask: Int, row i: Int, column j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}
