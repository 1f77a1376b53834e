import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import NIOSSL

/// The channels `serve` sends on, from the environment or config file, and how the banner
/// describes them.
///
/// | variable | meaning |
/// |---|---|
/// | `LIFESIGNAL_PUBLIC_URL` | where people reach this server (`https://ls.example`): responder links and Twilio's callbacks |
/// | `LIFESIGNAL_TWILIO_*` | SMS (``TwilioSMSSender/configuration(_:)``) |
/// | `LIFESIGNAL_SMTP_HOST`, `_PORT`, `_SECURITY` (`starttls`, `tls`, `none`), `_USERNAME`, `_PASSWORD`, `_FROM`, `_CA_FILE` | email |
/// | `LIFESIGNAL_APNS_KEY_FILE`, `_KEY_ID`, `_TEAM_ID`, `_TOPIC`, `_URL`, `_CA_FILE`, `_CRITICAL` | APNs directly |
struct DeliverySetup {
    var channels = DeliveryChannels()
    var publicURL: URL?
    var twilio: TwilioConfiguration?
    var smtp: (configuration: SMTPConfiguration, from: EmailAddress)?
    var apns: APNsClient?

    init(_ values: ConfigurationValues) throws {
        if let text = values["LIFESIGNAL_PUBLIC_URL"] {
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw values.invalid("LIFESIGNAL_PUBLIC_URL", "is not an http(s) URL")
            }
            publicURL = url
        }
        if var twilio = try TwilioSMSSender.configuration(values) {
            if let publicURL { twilio.statusCallback = publicURL.appendingPathComponent("hooks/twilio/status") }
            self.twilio = twilio
            // With a public URL the number's messaging webhook can reach `serve`: reminders say
            // how to answer them (README, "Texts to the server's number").
            channels.sms = TwilioChannelSender(client: TwilioClient(configuration: twilio), acceptsReplies: publicURL != nil)
            // Calls need a number to call from and a public URL Twilio fetches the words from;
            // nobody is called unless they chose calls (README, "Phone calls").
            if case .number(let number) = twilio.sender, let publicURL {
                channels.voice = TwilioCallSender(client: TwilioClient(configuration: twilio), from: number, publicURL: publicURL)
            }
        }
        if let smtp = try Self.smtp(values) {
            self.smtp = smtp
            channels.email = EmailChannelSender(client: SMTPClient(configuration: smtp.configuration), from: smtp.from)
        }
        if let apns = try Self.apns(values) {
            let client = try APNsClient(configuration: apns.configuration)
            self.apns = client
            channels.apns = APNsChannelSender(client: client, critical: apns.critical)
        }
    }

    /// Lines for the banner, one per channel.
    var summary: (sms: String, email: String, apns: String, links: String) {
        (
            sms: twilio.map {
                "Twilio, account \($0.accountSID)" + ($0.statusCallback == nil ? "" : ", delivery reports on")
                    + (channels.voice == nil ? "" : ", calls on")
            }
                ?? "codes written to this log, no alerts (set LIFESIGNAL_TWILIO_ACCOUNT_SID, _AUTH_TOKEN and _FROM)",
            email: smtp.map { "SMTP \($0.configuration.host):\($0.configuration.port) from \($0.from)" }
                ?? "off (set LIFESIGNAL_SMTP_HOST and LIFESIGNAL_SMTP_FROM)",
            apns: apns.map { "\($0.configuration)" } ?? "through the push sender above (set LIFESIGNAL_APNS_KEY_FILE… to reach iPhones directly)",
            links: publicURL.map { "\($0.absoluteString)/r/…" } ?? "http://127.0.0.1/r/… (set LIFESIGNAL_PUBLIC_URL)"
        )
    }

    private static func smtp(_ values: ConfigurationValues) throws -> (configuration: SMTPConfiguration, from: EmailAddress)? {
        guard let host = values["LIFESIGNAL_SMTP_HOST"] else { return nil }
        guard let fromText = values["LIFESIGNAL_SMTP_FROM"] else {
            throw values.invalid("LIFESIGNAL_SMTP_FROM", "is missing: email needs a From address")
        }
        let from: EmailAddress
        do { from = try EmailAddress(fromText, displayName: "LifeSignal") } catch {
            throw values.invalid("LIFESIGNAL_SMTP_FROM", "is not an email address")
        }
        let security: SMTPConfiguration.Security
        switch values["LIFESIGNAL_SMTP_SECURITY"]?.lowercased() ?? "starttls" {
        case "starttls": security = .startTLS
        case "tls": security = .implicitTLS
        case "none": security = .none
        case let other: throw values.invalid("LIFESIGNAL_SMTP_SECURITY", "is starttls, tls or none, not \(other)")
        }
        let defaultPort = security == .implicitTLS ? 465 : (security == .none ? 25 : 587)
        var port = defaultPort
        if let text = values["LIFESIGNAL_SMTP_PORT"] {
            guard let number = Int(text), (1...65535).contains(number) else { throw values.invalid("LIFESIGNAL_SMTP_PORT", "is not a port") }
            port = number
        }
        var credentials: SMTPConfiguration.Credentials?
        if let user = values["LIFESIGNAL_SMTP_USERNAME"] {
            guard let password = values["LIFESIGNAL_SMTP_PASSWORD"] else {
                throw values.invalid("LIFESIGNAL_SMTP_PASSWORD", "is missing: a username needs its password")
            }
            credentials = .init(username: user, password: password)
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let file = values["LIFESIGNAL_SMTP_CA_FILE"] {
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file)) } catch {
                throw values.invalid("LIFESIGNAL_SMTP_CA_FILE", "cannot be read as PEM certificates: \(error)")
            }
        }
        return (SMTPConfiguration(host: host, port: port, security: security, credentials: credentials, tls: tls), from)
    }

    private static func apns(_ values: ConfigurationValues) throws -> (configuration: APNsConfiguration, critical: Bool)? {
        let names = ["LIFESIGNAL_APNS_KEY_FILE", "LIFESIGNAL_APNS_KEY_ID", "LIFESIGNAL_APNS_TEAM_ID", "LIFESIGNAL_APNS_TOPIC"]
        let given = names.map { values[$0] }
        guard given.contains(where: { $0 != nil }) else { return nil }
        guard let file = given[0], let keyID = given[1], let teamID = given[2], let topic = given[3] else {
            let missing = zip(names, given).filter { $0.1 == nil }.map(\.0)
            throw values.invalid(missing[0], "is missing: APNs needs \(names.joined(separator: ", "))")
        }
        let key: String
        do { key = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw values.invalid("LIFESIGNAL_APNS_KEY_FILE", "cannot be read: \(error.localizedDescription)")
        }
        var baseURL = APNsConfiguration.productionURL
        if let text = values["LIFESIGNAL_APNS_URL"] {
            switch text {
            case "production": baseURL = APNsConfiguration.productionURL
            case "sandbox": baseURL = APNsConfiguration.sandboxURL
            default:
                guard let url = URL(string: text), url.scheme == "https", url.host != nil else {
                    throw values.invalid("LIFESIGNAL_APNS_URL", "is production, sandbox or an https URL")
                }
                baseURL = url
            }
        }
        var roots: String?
        if let file = values["LIFESIGNAL_APNS_CA_FILE"] {
            do { roots = try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw values.invalid("LIFESIGNAL_APNS_CA_FILE", "cannot be read: \(error.localizedDescription)")
            }
        }
        let critical = ["1", "true", "yes"].contains(values["LIFESIGNAL_APNS_CRITICAL"]?.lowercased() ?? "")
        return (
            APNsConfiguration(
                teamID: teamID, keyID: keyID, privateKeyPEM: key, topic: topic, baseURL: baseURL,
                additionalTrustRootsPEM: roots), critical
        )
    }
}
