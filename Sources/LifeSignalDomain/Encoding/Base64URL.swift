import Foundation

/// Base64url without padding (RFC 4648 §5), the one encoder and decoder of every token:
/// JWT parts, responder and invitation links, device tokens.
///
/// Byte-level rather than `replacingOccurrences`: every request verifies at least one token,
/// and Foundation's string replacement on Linux bridges through NSString, which showed as a
/// tenth of the server's time under load (docs/performance.md).
public enum Base64URL {
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let encoded = Data(bytes).base64EncodedData().compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The bytes `text` encodes, or `nil` for anything but the one canonical spelling: no
    /// padding, no `+` or `/`, no spaces, and the unused low bits of the last character zero
    /// (else two texts would decode alike, and one link would have two spellings).
    public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 3)
        var lastCharacter: UInt8 = 0
        for byte in text.utf8 {
            lastCharacter = byte
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        guard bytes.count % 4 != 1 else { return nil }
        let tail = bytes.count % 4
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - tail) % 4))
        guard let data = Data(base64Encoded: Data(bytes)) else { return nil }
        // The last character's unused bits: 4 of them after 2 characters, 2 after 3.
        if tail != 0, let last = Self.value(lastCharacter), last & (tail == 2 ? 0x0F : 0x03) != 0 { return nil }
        return [UInt8](data)
    }

    private static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
