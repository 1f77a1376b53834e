import Foundation

/// An email address, with the name a mail program shows beside it.
///
/// The address is checked when made: an email is built from people's own data (a
/// responder's address, a person's name), and a line break in either would let that data add
/// headers or recipients of its own (header injection).
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    public let address: String
    public let displayName: String?

    /// - Throws: ``EmailError/invalidAddress(_:)`` for anything but `local@domain` made of
    ///   printable characters without spaces, angle brackets or line breaks (at most 254).
    public init(_ address: String, displayName: String? = nil) throws(EmailError) {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard address.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !"<>()[]\\,;:\"".unicodeScalars.contains($0) })
        else { throw .invalidAddress(String(address.prefix(80))) }
        if let displayName, displayName.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidAddress("a display name with a control character")
        }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var description: String { address }

    /// The domain, for the Message-ID.
    var domain: String { address.split(separator: "@").last.map(String.init) ?? "localhost" }
}

/// One email: a plain-text body every mail program shows, and optionally an HTML one that
/// most prefer (sent as `multipart/alternative`).
public struct EmailMessage: Sendable, Hashable {
    public var from: EmailAddress
    public var to: [EmailAddress]
    public var subject: String
    public var text: String
    public var html: String?
    /// The `Message-ID` (without angle brackets); one is made up when `nil`.
    public var messageID: String?

    public init(from: EmailAddress, to: [EmailAddress], subject: String, text: String, html: String? = nil, messageID: String? = nil) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
    }
}

/// Why an email could not be made or sent.
public enum EmailError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidAddress(String)
    /// The message cannot be sent as it is (no recipient, a line break in the subject…).
    case invalidMessage(String)
    /// No connection, or it broke; worth another try later.
    case connection(String)
    /// TLS was required and the server did not offer it, or the handshake failed (an
    /// untrusted certificate among them): nothing was sent, and no password.
    case tls(String)
    /// The server answered `code` to `command`. 4xx is a passing refusal, 5xx a final one.
    case refused(command: String, code: Int, message: String)
    /// The server sent something that is not an SMTP reply (or a reply past the size limit).
    case malformedReply(String)
    case timedOut(after: Duration)
    /// The server and this client have no way in common (an AUTH mechanism).
    case unsupported(String)

    /// Whether sending again later may succeed: lost connections, timeouts and 4xx replies.
    public var isTransient: Bool {
        switch self {
        case .connection, .timedOut: true
        case .refused(_, let code, _): (400..<500).contains(code)
        case .invalidAddress, .invalidMessage, .tls, .malformedReply, .unsupported: false
        }
    }

    public var description: String {
        switch self {
        case .invalidAddress(let address): "Not an email address: \(address)"
        case .invalidMessage(let reason): "The email cannot be sent: \(reason)"
        case .connection(let reason): "SMTP connection failed: \(reason)"
        case .tls(let reason): "SMTP TLS failed: \(reason)"
        case .refused(let command, let code, let message): "The SMTP server answered \(command) with \(code) \(message)"
        case .malformedReply(let reason): "The SMTP server's reply is malformed: \(reason)"
        case .timedOut(let after): "The SMTP exchange took longer than \(after)"
        case .unsupported(let reason): "The SMTP server and this client have no way in common: \(reason)"
        }
    }
}
