import LifeSignalTestSupport

@testable import QREncoder

/// One symbol for the decoding round trip: what to encode and how.
struct RoundTripCase: Sendable, CustomStringConvertible {
    /// What the payload looks like: raw bytes (zero, invalid UTF-8 and all), mixed-script
    /// UTF-8 text, or a contact link such as the apps draw.
    enum Kind: String, Sendable, CaseIterable { case binary, text, link }

    let index: Int
    let kind: Kind
    let bytes: [UInt8]
    let errorCorrection: QRCode.ErrorCorrection
    /// A mask to force, or `nil` for the encoder's choice.
    let mask: Int?

    var description: String {
        "case \(index): \(bytes.count) bytes of \(kind) at level \(errorCorrection.letter), mask \(mask.map { "\($0) (forced)" } ?? "chosen")"
    }

    /// The symbol, made the way a caller would: from text when the payload is text and the
    /// mask is the encoder's, so `init(text:)` is exercised too.
    func encode() throws -> QRCode {
        if let mask { return try QRCode(bytes: bytes, errorCorrection: errorCorrection, mask: mask) }
        if kind != .binary, let text = String(validating: bytes, as: UTF8.self) {
            return try QRCode(text: text, errorCorrection: errorCorrection)
        }
        return try QRCode(bytes: bytes, errorCorrection: errorCorrection)
    }
}

/// The round trip's symbols, drawn from a seed so a failure reproduces.
enum RoundTripCases {
    /// Byte capacity of a version at a level, 0 for "version 0", so that
    /// `capacity(v - 1) + 1 ... capacity(v)` are exactly the lengths that need version v.
    static func capacity(_ version: Int, _ errorCorrection: QRCode.ErrorCorrection) -> Int {
        version == 0 ? 0 : SymbolTables.byteCapacity(version: version, errorCorrection: errorCorrection)
    }

    /// 216 symbols:
    /// - for every level and every version, one payload whose length needs exactly that
    ///   version (160), every other one with a forced mask, so each mask is forced ten times;
    /// - 48 of random level and length, half up to the level's capacity, half up to 120
    ///   bytes (the size of the links the apps draw);
    /// - the shortest (1 byte) and longest payload of each level (8).
    static func make(seed: UInt64) -> [RoundTripCase] {
        var random = SeededRandom(seed: seed)
        var cases: [RoundTripCase] = []
        func add(_ length: Int, _ level: QRCode.ErrorCorrection, mask: Int?) {
            let kind = random.pick(RoundTripCase.Kind.allCases)
            let bytes = payload(kind, length: length, using: &random)
            cases.append(RoundTripCase(index: cases.count, kind: kind, bytes: bytes, errorCorrection: level, mask: mask))
        }
        for (levelIndex, level) in QRCode.ErrorCorrection.allCases.enumerated() {
            for version in 1...40 {
                let length = random.int(capacity(version - 1, level) + 1...capacity(version, level))
                add(length, level, mask: version % 2 == 0 ? (version / 2 + levelIndex) % 8 : nil)
            }
        }
        for draw in 0..<48 {
            let level = random.pick(QRCode.ErrorCorrection.allCases)
            add(random.int(1...(draw % 2 == 0 ? capacity(40, level) : 120)), level, mask: nil)
        }
        for level in QRCode.ErrorCorrection.allCases {
            add(1, level, mask: nil)
            add(capacity(40, level), level, mask: nil)
        }
        return cases
    }

    /// Text scalars of one to four UTF-8 bytes: accents, Greek, CJK, emoji (with a skin-tone
    /// modifier and a flag's regional indicators as separate scalars) and ASCII.
    static let textPieces: [String] = [
        "a", "Z", "7", " ", "-", ".", "/", "?", "&", "=", "\"", "<", "é", "ü", "ñ", "ß", "Ø", "ç", "Ω", "λ", "Ж", "安", "全", "確",
        "認", "€", "✓", "🚨", "🆘", "👍", "\u{1F3FD}", "🇨", "🇦", "\n",
    ]
    static let base62 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A payload of `kind` exactly `length` bytes long (text stays valid UTF-8).
    static func payload(_ kind: RoundTripCase.Kind, length: Int, using random: inout SeededRandom) -> [UInt8] {
        switch kind {
        case .binary:
            return (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        case .text:
            var bytes: [UInt8] = []
            while bytes.count < length {
                let piece = Array(random.pick(textPieces).utf8)
                // A piece that does not fit gives way to ASCII, so the length is exact.
                bytes += bytes.count + piece.count <= length ? piece : [random.pick(base62)]
            }
            return bytes
        case .link:
            var bytes = Array("https://lifesignal.example/l/".utf8.prefix(length))
            while bytes.count < length {
                if bytes.count + 2 <= length && random.chance(0.05) {
                    bytes += Array("é".utf8)
                } else {
                    bytes.append(random.pick(base62))
                }
            }
            return bytes
        }
    }
}
