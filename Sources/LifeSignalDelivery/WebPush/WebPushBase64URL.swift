import Foundation

/// base64url (RFC 4648 §5) as Web Push writes it: `-` and `_` for `+` and `/`, no padding.
enum WebPushBase64URL {
    static func encode(_ bytes: some DataProtocol) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes of `text`, or nil if it is not base64url: only `A–Z a–z 0–9 - _`, with at
    /// most the padding a base64 length needs (accepted, never required). Standard base64's
    /// `+` and `/`, whitespace and anything else are refused.
    static func decode(_ text: String) -> Data? {
        var body = Substring(text)
        var padding = 0
        while body.hasSuffix("=") {
            body.removeLast()
            padding += 1
        }
        guard padding <= 2, body.utf8.count % 4 != 1 else { return nil }
        if padding > 0, (body.utf8.count + padding) % 4 != 0 { return nil }
        guard body.utf8.allSatisfy(isAlphabet) else { return nil }
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// Whether `byte` is one of base64url's 64 characters.
    static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
