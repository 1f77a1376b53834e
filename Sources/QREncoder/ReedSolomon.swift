/// Arithmetic in GF(256) as QR codes define it: bytes are polynomials over GF(2), reduced
/// modulo x⁸ + x⁴ + x³ + x² + 1 (0x11D), whose root α = 2 generates every non-zero element.
///
/// Multiplication goes through logarithm tables, built once: adding exponents is cheaper and
/// simpler than carry-less multiplication with a reduction per step.
enum GaloisField {
    /// `exponents[i]` is αⁱ, for i in 0..<510, so a sum of two logarithms needs no reduction.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0..<255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return table
    }()

    /// `logarithms[v]` is the i with αⁱ = v; `logarithms[0]` is meaningless (0 has none).
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for power in 0..<255 { table[Int(exponents[power])] = power }
        return table
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }
}

/// The error correction codewords of one block: the remainder of the data, as a polynomial
/// times x^degree, divided by the generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1))
/// (ISO/IEC 18004, 7.5.2 and Annex A).
enum ReedSolomon {
    /// The generator polynomial's coefficients, highest power first, without the leading 1
    /// (it is monic), so `generator(degree:).count == degree`.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients: [UInt8] = [1]
        for power in 0..<degree {
            // Multiply by (x + α^power); in GF(256) subtraction is addition (XOR).
            let root = GaloisField.exponents[power]
            var product = coefficients + [0]
            for index in coefficients.indices {
                product[index + 1] ^= GaloisField.multiply(coefficients[index], root)
            }
            coefficients = product
        }
        return Array(coefficients.dropFirst())
    }

    /// The `degree` error correction codewords for `data`.
    static func remainder(of data: [UInt8], degree: Int) -> [UInt8] {
        remainder(of: data, generator: generator(degree: degree))
    }

    /// The remainder for a generator already computed: a symbol's blocks all share one, and
    /// building it costs more than dividing a short block by it.
    static func remainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        // Long division as a shift register: each data byte, added to the register's highest
        // term, sets how much of the generator to subtract.
        guard !generator.isEmpty else { return [] }
        var register = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ (register.first ?? 0)
            register.removeFirst()
            register.append(0)
            for index in register.indices {
                register[index] ^= GaloisField.multiply(generator[index], factor)
            }
        }
        return register
    }
}
