import Foundation

/// Writes an ``EmailMessage`` as RFC 5322 / MIME text, 7-bit clean: non-ASCII header text as
/// RFC 2047 encoded words, bodies as base64 in 76-character lines, every line ending in CRLF.
/// 7-bit output needs no `8BITMIME` or `SMTPUTF8` from the server.
enum MIMEWriter {
    /// The message's bytes, ready for `DATA` (before dot-stuffing).
    static func render(_ message: EmailMessage, date: Date, boundary: String = "=_ls_" + UUID().uuidString) throws(EmailError) -> String {
        guard !message.to.isEmpty else { throw .invalidMessage("no recipient") }
        guard !message.subject.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
            throw .invalidMessage("a line break in the subject")
        }
        let messageID = message.messageID ?? "\(UUID().uuidString.lowercased())@\(message.from.domain)"
        guard !messageID.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F || $0 == "<" || $0 == ">" }) else {
            throw .invalidMessage("a Message-ID with spaces, brackets or non-ASCII characters")
        }
        var lines = [
            "From: " + mailbox(message.from),
            "To: " + message.to.map(mailbox).joined(separator: ",\r\n "),
            "Subject: " + encodedWords(message.subject),
            "Date: " + rfc5322Date(date),
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
        ]
        if let html = message.html {
            lines.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
            lines.append("")
            lines.append("--\(boundary)")
            lines += part("text/plain", message.text)
            lines.append("--\(boundary)")
            lines += part("text/html", html)
            lines.append("--\(boundary)--")
        } else {
            lines += part("text/plain", message.text)
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private static func part(_ type: String, _ body: String) -> [String] {
        ["Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", ""] + base64Lines(Data(body.utf8))
    }

    static func base64Lines(_ data: Data) -> [String] {
        let encoded = data.base64EncodedString()
        guard !encoded.isEmpty else { return [""] }
        var lines: [String] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines
    }

    /// `"Name" <address>`, or the address alone.
    static func mailbox(_ address: EmailAddress) -> String {
        guard let name = address.displayName else { return "<\(address.address)>" }
        let phrase = encodedWords(name, quotingASCII: true)
        // An encoded name fills most of a line: the address goes on a folded one.
        return phrase + (phrase.hasPrefix("=?") ? "\r\n " : " ") + "<\(address.address)>"
    }

    /// Header text as it may appear in a header: ASCII as it is (quoted, for a display name,
    /// when it holds specials), anything else as UTF-8 base64 encoded words of at most 75
    /// characters each (RFC 2047; 64 here), split between characters, never inside one.
    static func encodedWords(_ text: String, quotingASCII: Bool = false) -> String {
        let printable = text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }
        if printable {
            guard quotingASCII else { return text }
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        }
        // 39 bytes of UTF-8 make 52 base64 characters, a 64-character word: with "Subject: "
        // before the first one, every line stays within 78 characters.
        var words: [String] = []
        var chunk = Data()
        for character in text {
            let bytes = Data(String(character).utf8)
            if chunk.count + bytes.count > 39, !chunk.isEmpty {
                words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=")
                chunk = Data()
            }
            chunk.append(bytes)
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// `DATA`'s transparency (RFC 5321 §4.5.2): a line that starts with a dot gets another.
    static func dotStuffed(_ text: String) -> String {
        var out = text.hasPrefix(".") ? "." + text : text
        out = out.replacingOccurrences(of: "\r\n.", with: "\r\n..")
        return out
    }
}
