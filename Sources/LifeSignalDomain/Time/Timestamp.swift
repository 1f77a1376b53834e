import Foundation
import RFC3339

/// The one text form of an instant in SQLite and on the wire:
/// `2024-06-05T12:00:00.123456+00:00`, always UTC with six fractional digits.
///
/// A fixed width makes text comparison agree with time order, so SQLite can index and compare
/// timestamps stored as text. Microseconds are what PostgreSQL keeps, so a value survives a
/// round trip through either engine unchanged.
public enum Timestamp {
    /// The instants the form can write and ``parse(_:)`` reads back.
    static var representableMicros: ClosedRange<Int64> { RFC3339.representableMicros }

    /// The stored form of `date` (``RFC3339/format(_:fractionDigits:zone:)``: an instant
    /// outside the four-digit years is written as the nearest end of them).
    public static func format(_ date: Date) -> String { RFC3339.format(date) }

    /// ``postgresText(_:)`` of a stored value, without a round trip through `Date` when the
    /// text is already in the stored form (`…SS.ffffff+00:00`).
    public static func postgresText(stored text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let end = bytes.withUnsafeBufferPointer(storedFractionEnd) else { return parse(text).map(postgresText) }
        return String(decoding: bytes[0..<end] + bytes[26...], as: UTF8.self)
    }

    /// For text in the stored form (`…SS.ffffff+00:00`, 32 bytes), where its PostgreSQL form
    /// cuts it: that form is bytes `0..<end` then `26...` (the fraction's trailing zeros, and a
    /// dot left alone, dropped). `nil` for text in any other form. A renderer writes the two
    /// pieces as they are, without building a string per value.
    public static func storedFractionEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count == 32, bytes[19] == UInt8(ascii: "."), bytes[10] == UInt8(ascii: "T"),
            bytes[26] == UInt8(ascii: "+"), bytes[27] == UInt8(ascii: "0"), bytes[28] == UInt8(ascii: "0"),
            bytes[29] == UInt8(ascii: ":"), bytes[30] == UInt8(ascii: "0"), bytes[31] == UInt8(ascii: "0")
        else { return nil }
        var end = 26
        while end > 20, bytes[end - 1] == UInt8(ascii: "0") { end -= 1 }
        return end == 20 ? 19 : end
    }

    /// PostgreSQL's JSON text for a `timestamptz` in UTC: fractional digits only when non-zero,
    /// trailing zeros dropped (`2024-06-05T12:00:00+00:00`, `…12:00:00.5+00:00`).
    public static func postgresText(_ date: Date) -> String {
        let full = format(date)
        let dot = full.index(full.startIndex, offsetBy: 19)
        let zone = full.index(full.endIndex, offsetBy: -6)
        var fraction = full[dot..<zone]
        while fraction.last == "0" { fraction = fraction.dropLast() }
        if fraction == "." { fraction = "" }
        return String(full[..<dot]) + fraction + String(full[zone...])
    }

    /// Reads any instant PostgreSQL, PostgREST or GoTrue writes, or a client sends
    /// (``RFC3339/Profile/postgres``; the rules are ``RFC3339``'s).
    public static func parse(_ text: String) -> Date? { RFC3339.parse(text) }
}
