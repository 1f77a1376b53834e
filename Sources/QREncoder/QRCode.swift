/// A QR Code Model 2 symbol (ISO/IEC 18004), encoded from bytes in byte mode.
///
/// Why a module of our own: LifeSignal draws a contact link as a QR code on the server's
/// pages (SVG) and in a terminal (text), and that takes a few hundred lines; a package for
/// them would bring its own dependencies and updates into every target that draws one. Byte
/// mode only: a link or any UTF-8 text fits, and the denser numeric and alphanumeric modes
/// would save little for the payloads we draw.
///
/// The symbol is a value: its version, level, mask and modules, compared and hashed as such.
/// Renderers (SVG, terminal text, grayscale pixels) live in extensions of their own.
public struct QRCode: Sendable, Hashable {
    /// The version, 1...40: the symbol is `17 + 4 * version` modules wide.
    public let version: Int
    /// The level of error correction the symbol was encoded with.
    public let errorCorrection: ErrorCorrection
    /// The data mask applied, 0...7 (the standard's mask pattern reference).
    public let mask: Int
    /// The modules, row by row, `true` for dark.
    let modules: [Bool]

    /// The width (and height) in modules, without a quiet zone.
    public var size: Int { 17 + 4 * version }

    /// Whether the module at column `x`, row `y` is dark. Outside the symbol it is light, so
    /// a renderer can draw the quiet zone by asking for coordinates around the symbol.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Encodes `bytes` in the smallest version that holds them at `errorCorrection`, with the
    /// mask the standard's penalty rules find best.
    ///
    /// - Throws: `EncodingError.tooLong` when even version 40 cannot hold them.
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(EncodingError) {
        try self.init(bytes: bytes, errorCorrection: errorCorrection, forcedMask: nil)
    }

    /// Encodes the UTF-8 bytes of `text` (decoders read byte mode as UTF-8 when it is valid
    /// UTF-8, which it always is here).
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(EncodingError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection, forcedMask: nil)
    }

    /// Encodes `bytes` with the given mask instead of the best one: for tests, which must
    /// show that every mask decodes. Any mask gives a valid symbol; the penalty rules only
    /// pick the one easiest to read.
    ///
    /// - Precondition: `mask` is in 0...7.
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection, mask: Int) throws(EncodingError) {
        precondition((0...7).contains(mask), "A QR code's mask is 0...7, not \(mask)")
        try self.init(bytes: bytes, errorCorrection: errorCorrection, forcedMask: mask)
    }

    private init(bytes: [UInt8], errorCorrection: ErrorCorrection, forcedMask: Int?) throws(EncodingError) {
        guard let version = SymbolTables.smallestVersion(holding: bytes.count, at: errorCorrection) else {
            throw .tooLong(bytes: bytes.count, maximum: SymbolTables.byteCapacity(version: 40, errorCorrection: errorCorrection))
        }
        let layout = BlockLayout(version: version, errorCorrection: errorCorrection)
        let data = DataCodewords.encode(bytes, version: version, capacity: layout.dataCodewords)
        let codewords = layout.interleave(data)

        var grid = ModuleGrid(version: version)
        grid.place(codewords)
        let masks = forcedMask.map { [$0] } ?? Array(0...7)
        // Each mask is tried on a copy of the unmasked grid, with its own format information
        // drawn, because the penalty counts the whole symbol, format modules included.
        var best: (mask: Int, grid: ModuleGrid, penalty: Int)?
        for mask in masks {
            var candidate = grid
            candidate.applyMask(mask)
            candidate.drawFormatInformation(errorCorrection: errorCorrection, mask: mask)
            let penalty = masks.count == 1 ? 0 : MaskPenalty.score(candidate)
            if best.map({ penalty < $0.penalty }) ?? true { best = (mask, candidate, penalty) }
        }
        // `masks` is never empty, so `best` is set; the fallback keeps the code free of `!`.
        let chosen = best ?? (0, grid, 0)
        self.version = version
        self.errorCorrection = errorCorrection
        self.mask = chosen.mask
        self.modules = chosen.grid.modules
    }
}
