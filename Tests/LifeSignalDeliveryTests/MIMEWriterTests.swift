import Foundation
import Testing

@testable import LifeSignalDelivery

/// How an email is written down: 7-bit clean, lines within limits, nothing a person's data can
/// turn into a header.
@Suite("Email: MIME writing")
struct MIMEWriterTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a multipart message is 7-bit, CRLF-terminated and its base64 lines are at most 76 characters")
    func multipart() throws {
        let message = EmailMessage(
            from: try EmailAddress("alerts@lifesignal.example", displayName: "LifeSignal"),
            to: [try EmailAddress("maya@example.com", displayName: "Maya López")],
            subject: "Grandpa Joe missed his check-in — please look in on him",
            text: String(repeating: "Zeile mit Umlauten äöü. ", count: 20), html: "<p>Hello</p>")
        let text = try MIMEWriter.render(message, date: Self.date, boundary: "b")
        #expect(text.utf8.allSatisfy { $0 < 128 })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78, "line too long: \(line)") }
        #expect(text.contains("Content-Type: multipart/alternative; boundary=\"b\""))
        #expect(text.contains("Date: Fri, 15 Jan 2027 08:00:00 +0000"))
        #expect(text.contains("To: =?UTF-8?B?"))
        #expect(text.hasSuffix("--b--\r\n"))
    }

    @Test("encoded words split between characters and decode back to the text")
    func encodedWords() {
        let subject = String(repeating: "👋é", count: 30)
        let encoded = MIMEWriter.encodedWords(subject)
        var decoded = ""
        for word in encoded.components(separatedBy: "\r\n ") {
            #expect(word.count <= 75)
            let payload = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            let data = Data(base64Encoded: String(payload))
            #expect(data != nil)
            decoded += String(decoding: data ?? Data(), as: UTF8.self)
        }
        #expect(decoded == subject)
        #expect(MIMEWriter.encodedWords("Plain \"ASCII\"", quotingASCII: true) == "\"Plain \\\"ASCII\\\"\"")
    }

    @Test("a line break in the subject, an address with one, or no recipient is refused before sending")
    func injection() throws {
        let from = try EmailAddress("alerts@lifesignal.example")
        #expect(throws: EmailError.self) { try EmailAddress("maya@example.com\r\nBcc: x@evil.example") }
        #expect(throws: EmailError.self) { try EmailAddress("maya@example.com", displayName: "Maya\r\nBcc: x@evil.example") }
        #expect(throws: EmailError.self) { try EmailAddress("no-at-sign") }
        #expect(throws: EmailError.self) { try EmailAddress("a@b@c") }
        #expect(throws: EmailError.self) {
            try MIMEWriter.render(EmailMessage(from: from, to: [from], subject: "Hi\r\nBcc: x@evil.example", text: "t"), date: Self.date)
        }
        #expect(throws: EmailError.self) { try MIMEWriter.render(EmailMessage(from: from, to: [], subject: "Hi", text: "t"), date: Self.date) }
    }

    @Test("dot-stuffing doubles a dot that starts a line, and only those")
    func dotStuffing() {
        #expect(MIMEWriter.dotStuffed(".a\r\nb.\r\n.\r\n") == "..a\r\nb.\r\n..\r\n")
    }
}
