extension QRCode {
    /// How much of the symbol is redundancy, so that a smudged, torn or partly covered code
    /// still reads: about 7 % (low), 15 % (medium), 25 % (quartile) or 30 % (high) of the
    /// codewords can be restored. More correction makes a bigger symbol for the same data.
    ///
    /// Medium is the default because it is what most generators use: a fair trade between a
    /// small symbol and one that survives a phone camera's glare.
    public enum ErrorCorrection: Sendable, Hashable, CaseIterable {
        case low, medium, quartile, high

        /// The level's two bits in the format information (ISO/IEC 18004, 7.9.1): not in the
        /// order of strength, so they are spelled out rather than derived from the case's position.
        var formatBits: Int {
            switch self {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        }

        /// The row of `SymbolTables`' per-level tables.
        var tableIndex: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }

        /// The level's letter, as the standard and decoders name it (L, M, Q, H).
        var letter: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }
    }

    /// Why a payload could not be encoded.
    public enum EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The payload has `bytes` bytes, but the largest symbol (version 40) holds at most
        /// `maximum` at the requested level of error correction.
        case tooLong(bytes: Int, maximum: Int)

        public var description: String {
            switch self {
            case .tooLong(let bytes, let maximum):
                "A QR code cannot hold \(bytes) bytes at this level of error correction: version 40, the largest, holds at most \(maximum) bytes."
            }
        }
    }
}
