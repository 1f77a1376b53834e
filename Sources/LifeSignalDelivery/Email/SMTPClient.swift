import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Sends email over SMTP (RFC 5321) to one relay: `EHLO`, `STARTTLS` (or TLS from the start),
/// `AUTH PLAIN` or `LOGIN`, `MAIL FROM`, `RCPT TO`, `DATA`, one connection per message.
///
/// Nothing is sent in the clear that should not be: with ``SMTPConfiguration/Security/startTLS``
/// a server that does not offer `STARTTLS` gets no message, and a password goes only over TLS.
/// Every failure is an ``EmailError`` whose ``EmailError/isTransient`` tells a sender whether
/// to try again later.
public struct SMTPClient: Sendable {
    public let configuration: SMTPConfiguration
    private let group: any EventLoopGroup
    private let logger: Logger

    public init(
        configuration: SMTPConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "lifesignal.smtp")
    ) {
        self.configuration = configuration
        self.group = group
        self.logger = logger
    }

    /// Sends `message` and returns the server's acceptance (its text names the queue id).
    ///
    /// - Throws: an ``EmailError``: the message is invalid, the server refused it, or the
    ///   exchange failed or passed ``SMTPConfiguration/timeout``.
    public func send(_ message: EmailMessage, date: Date = Date()) async throws -> String {
        let data = try MIMEWriter.render(message, date: date)
        let timeout = configuration.timeout
        do {
            return try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { try await self.exchange(message, data: data) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let accepted = first else { throw EmailError.timedOut(after: timeout) }
                return accepted
            }
        } catch let error as EmailError {
            throw error
        } catch let error as NIOSSLError {
            throw EmailError.tls(String(describing: error))
        } catch let error as BoringSSLError {
            throw EmailError.tls(String(describing: error))
        } catch {
            throw EmailError.connection(String(describing: error))
        }
    }

    private func exchange(_ message: EmailMessage, data: String) async throws -> String {
        let configuration = configuration
        let context = configuration.security == .none ? nil : try NIOSSLContext(configuration: configuration.tls)
        // SNI takes a name, never an address; an address is still checked against the
        // certificate's IP entries.
        let serverName = Self.isIPAddress(configuration.host) ? nil : configuration.host
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.timeout))
            .connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if configuration.security == .implicitTLS, let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                    return try NIOAsyncChannel<SMTPReply, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(replies: inbound.makeAsyncIterator(), outbound: outbound, logger: logger)
            _ = try await session.expect(220, after: "connecting")
            var capabilities = try await session.hello(configuration.clientName)
            var encrypted = configuration.security == .implicitTLS
            if configuration.security == .startTLS {
                guard capabilities.contains("STARTTLS") else { throw EmailError.tls("the server does not offer STARTTLS") }
                try await session.command("STARTTLS", expecting: 220)
                guard let context else { throw EmailError.tls("no TLS context") }
                let handshake = channel.channel.eventLoop.makePromise(of: Void.self)
                try await channel.channel.eventLoop.submit {
                    let tls = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                    let pipeline = channel.channel.pipeline.syncOperations
                    try pipeline.addHandler(tls, position: .first)
                    try pipeline.addHandler(TLSHandshakeWaiter(promise: handshake), position: .after(tls))
                }.get()
                do { try await handshake.futureResult.get() } catch let error as EmailError { throw error } catch {
                    throw EmailError.tls(String(describing: error))
                }
                encrypted = true
                capabilities = try await session.hello(configuration.clientName)
            }
            if let credentials = configuration.credentials {
                guard encrypted else { throw EmailError.tls("a password is sent only over TLS") }
                try await session.authenticate(credentials, offered: capabilities)
            }
            try await session.command("MAIL FROM:<\(message.from.address)>", expecting: 250)
            for recipient in message.to {
                try await session.command("RCPT TO:<\(recipient.address)>", expecting: 250, 251)
            }
            try await session.command("DATA", expecting: 354)
            let accepted = try await session.send(MIMEWriter.dotStuffed(data) + ".\r\n", as: "the message", expecting: 250)
            try? await session.write("QUIT")
            return accepted.message
        }
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}

/// One connection's conversation: commands out, replies in, in order.
struct SMTPSession {
    var replies: NIOAsyncChannelInboundStream<SMTPReply>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let logger: Logger

    mutating func expect(_ codes: Int..., after command: String) async throws -> SMTPReply {
        guard let reply = try await replies.next() else { throw EmailError.connection("the server closed the connection after \(command)") }
        guard codes.contains(reply.code) else {
            throw EmailError.refused(command: command, code: reply.code, message: String(reply.message.prefix(300)))
        }
        return reply
    }

    func write(_ line: String) async throws {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
    }

    /// Sends `line` (logged as `label`, so a password in it is not) and waits for its reply.
    @discardableResult
    mutating func command(_ line: String, label: String? = nil, expecting codes: Int...) async throws -> SMTPReply {
        let name = label ?? line
        logger.debug("SMTP >> \(name)")
        try await write(line)
        guard let reply = try await replies.next() else { throw EmailError.connection("the server closed the connection after \(name)") }
        guard codes.contains(reply.code) else {
            throw EmailError.refused(command: name, code: reply.code, message: String(reply.message.prefix(300)))
        }
        return reply
    }

    mutating func send(_ text: String, as label: String, expecting code: Int) async throws -> SMTPReply {
        try await outbound.write(ByteBuffer(string: text))
        return try await expect(code, after: label)
    }

    /// `EHLO`, returning the extensions offered (upper-cased keywords with their parameters).
    mutating func hello(_ name: String) async throws -> Set<String> {
        let reply = try await command("EHLO \(name)", expecting: 250)
        var offered: Set<String> = []
        for line in reply.lines.dropFirst() {
            let words = line.uppercased().split(separator: " ")
            guard let keyword = words.first else { continue }
            offered.insert(String(keyword))
            if keyword == "AUTH" { for mechanism in words.dropFirst() { offered.insert("AUTH=\(mechanism)") } }
        }
        return offered
    }

    mutating func authenticate(_ credentials: SMTPConfiguration.Credentials, offered: Set<String>) async throws {
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if offered.contains("AUTH=PLAIN") {
            try await command("AUTH PLAIN " + base64("\0\(credentials.username)\0\(credentials.password)"), label: "AUTH PLAIN", expecting: 235)
        } else if offered.contains("AUTH=LOGIN") {
            try await command("AUTH LOGIN", expecting: 334)
            try await command(base64(credentials.username), label: "AUTH LOGIN (user name)", expecting: 334)
            try await command(base64(credentials.password), label: "AUTH LOGIN (password)", expecting: 235)
        } else {
            throw EmailError.unsupported("the server offers neither AUTH PLAIN nor AUTH LOGIN")
        }
    }
}
