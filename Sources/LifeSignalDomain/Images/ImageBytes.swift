/// Why an image header could not be read, in words for the client.
struct HeaderError: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Bounds-checked reads over an upload's bytes.
///
/// Every read names what it reads and throws instead of trapping when it would pass the end,
/// and no offset is ever formed by adding a length read from the file to another offset
/// before that length was compared with what is left (`length <= count - offset`, which
/// cannot overflow), so hostile lengths can neither trap nor wrap.
struct ImageBytes: Sendable {
    let raw: [UInt8]
    var count: Int { raw.count }

    init(_ raw: [UInt8]) { self.raw = raw }

    /// Whether `length` bytes start at `offset` inside the file.
    func contains(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= raw.count && length <= raw.count - offset
    }

    private func require(_ length: Int, at offset: Int, _ what: String) throws(HeaderError) {
        guard contains(length, at: offset) else { throw HeaderError("the file ends before \(what)") }
    }

    func u8(_ offset: Int, _ what: String) throws(HeaderError) -> Int {
        try require(1, at: offset, what)
        return Int(raw[offset])
    }

    func u16be(_ offset: Int, _ what: String) throws(HeaderError) -> Int {
        try require(2, at: offset, what)
        return Int(raw[offset]) << 8 | Int(raw[offset + 1])
    }

    func u16le(_ offset: Int, _ what: String) throws(HeaderError) -> Int {
        try require(2, at: offset, what)
        return Int(raw[offset]) | Int(raw[offset + 1]) << 8
    }

    func u24le(_ offset: Int, _ what: String) throws(HeaderError) -> Int {
        try require(3, at: offset, what)
        return Int(raw[offset]) | Int(raw[offset + 1]) << 8 | Int(raw[offset + 2]) << 16
    }

    func u32be(_ offset: Int, _ what: String) throws(HeaderError) -> Int {
        try require(4, at: offset, what)
        return (0..<4).reduce(0) { $0 << 8 | Int(raw[offset + $1]) }
    }

    func u32le(_ offset: Int, _ what: String) throws(HeaderError) -> Int {
        try require(4, at: offset, what)
        return (0..<4).reversed().reduce(0) { $0 << 8 | Int(raw[offset + $1]) }
    }

    /// A 64-bit length, kept unsigned: a file may declare more than `Int.max`.
    func u64be(_ offset: Int, _ what: String) throws(HeaderError) -> UInt64 {
        try require(8, at: offset, what)
        return (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(raw[offset + $1]) }
    }

    /// Four bytes as a code (`IHDR`, `VP8X`, `ftyp`); bytes outside ASCII show as `?`.
    func fourCC(_ offset: Int, _ what: String) throws(HeaderError) -> String {
        try require(4, at: offset, what)
        return String(raw[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }

    /// Whether the file holds exactly `bytes` at `offset`.
    func matches(_ bytes: [UInt8], at offset: Int) -> Bool {
        contains(bytes.count, at: offset) && raw[offset..<offset + bytes.count].elementsEqual(bytes)
    }

    func matches(_ ascii: String, at offset: Int) -> Bool { matches(Array(ascii.utf8), at: offset) }
}
