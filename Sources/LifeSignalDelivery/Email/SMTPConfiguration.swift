import NIOSSL

/// Where and how to send email: the operator's SMTP relay (a provider's submission port, or
/// a local one).
public struct SMTPConfiguration: Sendable {
    public enum Security: Sendable, Hashable {
        /// Plain TCP, then `STARTTLS` before anything else (port 587). The server must offer
        /// it: without it nothing is sent.
        case startTLS
        /// TLS from the first byte (port 465).
        case implicitTLS
        /// No TLS at all, for a relay on the same machine. A password is never sent this way.
        case none
    }

    public struct Credentials: Sendable, Hashable, CustomStringConvertible {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        /// Never the password: configurations end up in logs.
        public var description: String { "\(username) (password hidden)" }
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var credentials: Credentials?
    /// Trust roots and verification (default: the system's roots, full verification).
    public var tls: TLSConfiguration
    /// The name given in `EHLO`.
    public var clientName: String
    /// The longest one message's whole exchange may take, connecting included.
    public var timeout: Duration

    public init(
        host: String, port: Int, security: Security = .startTLS, credentials: Credentials? = nil,
        tls: TLSConfiguration = .makeClientConfiguration(), clientName: String = "lifesignal.local",
        timeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.credentials = credentials
        self.tls = tls
        self.clientName = clientName
        self.timeout = timeout
    }
}
