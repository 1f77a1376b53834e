import Foundation
import LifeSignalTestSupport
import NIOSSL
import Testing

@testable import LifeSignalDelivery

/// ``SMTPClient`` against a real SMTP server process (aiosmtpd, `Tests/Compatibility/smtp_server.py`)
/// over 127.0.0.1: STARTTLS with a certificate the client must verify, AUTH only over TLS, and
/// the server's refusals as the errors a sender retries or gives up on.
@Suite("Email: SMTP client against aiosmtpd")
struct SMTPClientTests {
    static let credentials = SMTPConfiguration.Credentials(username: "lifesignal", password: "s3cret pass")

    static func message(to recipient: String = "maya@example.com") throws -> EmailMessage {
        EmailMessage(
            from: try EmailAddress("alerts@lifesignal.example", displayName: "LifeSignal"),
            to: [try EmailAddress(recipient, displayName: "Maya López")],
            subject: "Grandpa Joe missed his check-in — 09:00",
            text: "Grandpa Joe did not check in by 09:00.\n.\nA line with a dot alone, above.",
            html: "<p>Grandpa Joe did not check in by <b>09:00</b>.</p>")
    }

    static func configuration(
        _ server: StandInProcess, security: SMTPConfiguration.Security = .startTLS,
        credentials: SMTPConfiguration.Credentials? = credentials, trusted: Bool = true
    ) throws -> SMTPConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if trusted { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(server.certificatePath)) }
        return SMTPConfiguration(
            host: "localhost", port: server.port, security: security, credentials: credentials, tls: tls,
            timeout: .seconds(60))
    }

    @Test("STARTTLS, AUTH, then the message arrives whole: headers, both parts, the dot line, UTF-8")
    func delivers() async throws {
        let server = try await SMTPTestServer.start(mode: "starttls")
        defer { server.stop() }
        let accepted = try await SMTPClient(configuration: Self.configuration(server)).send(Self.message())
        #expect(accepted.contains("queued as"))
        let record = try await server.nextMessage()
        #expect(record["tls"] as? Bool == true)
        #expect(record["authenticated"] as? Bool == true)
        #expect(record["mail_from"] as? String == "alerts@lifesignal.example")
        #expect(record["rcpt_tos"] as? [String] == ["maya@example.com"])
        #expect(record["subject"] as? String == "Grandpa Joe missed his check-in — 09:00")
        #expect(record["to"] as? String == "Maya López <maya@example.com>")
        #expect(record["content_type"] as? String == "multipart/alternative")
        #expect(record["text"] as? String == "Grandpa Joe did not check in by 09:00.\n.\nA line with a dot alone, above.")
        #expect(record["html"] as? String == "<p>Grandpa Joe did not check in by <b>09:00</b>.</p>")
        #expect(record["raw_ascii"] as? Bool == true)
    }

    @Test("TLS from the first byte (port 465 style) with AUTH")
    func implicitTLS() async throws {
        let server = try await SMTPTestServer.start(mode: "implicit")
        defer { server.stop() }
        _ = try await SMTPClient(configuration: Self.configuration(server, security: .implicitTLS)).send(Self.message())
        let record = try await server.nextMessage()
        #expect(record["tls"] as? Bool == true)
        #expect(record["authenticated"] as? Bool == true)
    }

    @Test("a server without STARTTLS gets nothing: no message, no password")
    func refusesPlaintext() async throws {
        let server = try await SMTPTestServer.start(mode: "plain")
        defer { server.stop() }
        await #expect {
            _ = try await SMTPClient(configuration: Self.configuration(server)).send(Self.message())
        } throws: { error in
            guard case .tls = error as? EmailError else { return false }
            return !(error as? EmailError)!.isTransient
        }
        // Asked for no TLS but with a password: still refused.
        await #expect(throws: EmailError.self) {
            _ = try await SMTPClient(configuration: Self.configuration(server, security: .none)).send(Self.message())
        }
        // Without a password, a relay that speaks no TLS takes the message (a local relay).
        _ = try await SMTPClient(configuration: Self.configuration(server, security: .none, credentials: nil)).send(Self.message())
        let record = try await server.nextMessage()
        #expect(record["tls"] as? Bool == false)
        #expect(server.messageCount == 1)
    }

    @Test("a certificate the client does not trust stops the exchange before AUTH")
    func untrustedCertificate() async throws {
        let server = try await SMTPTestServer.start(mode: "starttls")
        defer { server.stop() }
        await #expect {
            _ = try await SMTPClient(configuration: Self.configuration(server, trusted: false)).send(Self.message())
        } throws: { error in
            if case .tls = error as? EmailError { return true }
            return false
        }
        #expect(server.messageCount == 0)
    }

    @Test("a wrong password, a recipient refused for now (451) and for good (550) are told apart")
    func refusals() async throws {
        let server = try await SMTPTestServer.start(mode: "starttls")
        defer { server.stop() }
        let wrong = SMTPConfiguration.Credentials(username: "lifesignal", password: "guess")
        await #expect {
            _ = try await SMTPClient(configuration: Self.configuration(server, credentials: wrong)).send(Self.message())
        } throws: { error in
            guard case .refused(let command, let code, _) = error as? EmailError else { return false }
            return command == "AUTH PLAIN" && code == 535 && !(error as? EmailError)!.isTransient
        }
        await #expect {
            _ = try await SMTPClient(configuration: Self.configuration(server)).send(Self.message(to: "transient@example.com"))
        } throws: { error in
            guard case .refused(_, 451, _) = error as? EmailError else { return false }
            return (error as? EmailError)!.isTransient
        }
        await #expect {
            _ = try await SMTPClient(configuration: Self.configuration(server)).send(Self.message(to: "permanent@example.com"))
        } throws: { error in
            guard case .refused(_, 550, _) = error as? EmailError else { return false }
            return !(error as? EmailError)!.isTransient
        }
        #expect(server.messageCount == 0)
    }

    @Test("nobody listening is a transient connection error")
    func nobodyListening() async throws {
        let server = try await SMTPTestServer.start(mode: "starttls")
        let configuration = try Self.configuration(server)
        server.stop()
        try await Task.sleep(for: .milliseconds(300))
        await #expect {
            _ = try await SMTPClient(configuration: configuration).send(Self.message())
        } throws: { error in
            guard case .connection = error as? EmailError else { return false }
            return (error as? EmailError)!.isTransient
        }
    }
}
