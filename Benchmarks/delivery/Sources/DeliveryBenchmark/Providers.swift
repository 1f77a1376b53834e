import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer

/// The three provider stand-ins `run.sh` started on 127.0.0.1, and the senders `serve` would
/// build for them (`DeliverySetup`): Twilio over HTTP, SMTP without TLS, APNs over HTTP/2 and TLS.
struct Providers {
    static let accountSID = "AC" + String(repeating: "5", count: 32), authToken = "bench-auth-token"
    static let teamID = "TEAM123456", keyID = "KEY1234567", topic = "org.lifesignal.app"

    let twilioPort: Int
    let smtpPort: Int
    let apnsPort: Int
    /// The APNs stand-in's self-signed certificate, and the provider key (PKCS#8) whose public
    /// half it was given.
    let apnsCertificate: String
    let apnsKey: String
    /// Where `run.sh` writes each stand-in's output, a receive time before every line.
    let logs: URL

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// From `BENCH_*` variables `run.sh` sets.
    static func fromEnvironment() throws -> Providers {
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) throws -> String {
            guard let text = environment[name], !text.isEmpty else { throw Missing(description: "\(name) is not set: start the benchmark with run.sh") }
            return text
        }
        func port(_ name: String) throws -> Int {
            guard let number = Int(try value(name)) else { throw Missing(description: "\(name) is not a port") }
            return number
        }
        return Providers(
            twilioPort: try port("BENCH_TWILIO_PORT"), smtpPort: try port("BENCH_SMTP_PORT"), apnsPort: try port("BENCH_APNS_PORT"),
            apnsCertificate: try String(contentsOfFile: try value("BENCH_APNS_CERT"), encoding: .utf8),
            apnsKey: try String(contentsOfFile: try value("BENCH_APNS_KEY"), encoding: .utf8),
            logs: URL(fileURLWithPath: try value("BENCH_LOGS")))
    }

    /// The channel senders, and the APNs client to shut down at the end.
    func channels() throws -> (channels: DeliveryChannels, apns: APNsClient) {
        guard let twilioURL = URL(string: "http://127.0.0.1:\(twilioPort)"), let apnsURL = URL(string: "https://127.0.0.1:\(apnsPort)") else {
            throw Missing(description: "no URL for the stand-ins' ports")
        }
        let twilio = TwilioClient(configuration: TwilioConfiguration(
            accountSID: Self.accountSID, authToken: Self.authToken, sender: .number("+15005550006"), baseURL: twilioURL))
        let smtp = SMTPClient(configuration: SMTPConfiguration(host: "127.0.0.1", port: smtpPort, security: .none))
        let apns = try APNsClient(configuration: APNsConfiguration(
            teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: apnsKey, topic: Self.topic, baseURL: apnsURL,
            additionalTrustRootsPEM: apnsCertificate))
        let from = try EmailAddress("alerts@lifesignal.test", displayName: "LifeSignal")
        return (DeliveryChannels(sms: TwilioChannelSender(client: twilio), email: EmailChannelSender(client: smtp, from: from),
                                 apns: APNsChannelSender(client: apns, critical: false)), apns)
    }

    /// What each stand-in took so far.
    func received() throws -> [DeliveryChannel: Received] {
        [.sms: try Received(log: logs.appendingPathComponent("twilio.log"), channel: .sms),
         .email: try Received(log: logs.appendingPathComponent("smtp.log"), channel: .email),
         .push: try Received(log: logs.appendingPathComponent("apns.log"), channel: .push)]
    }
}

/// The messages one stand-in accepted, read from its output: one JSON object a line, after
/// the time (Unix seconds) `stamp.py` read the line, which the stand-in prints as it accepts.
struct Received {
    var accepted = 0
    var refused = 0
    var addresses: Set<String> = []
    var first: Double = .infinity
    var last: Double = 0

    init(log: URL, channel: DeliveryChannel) throws {
        let text = try String(contentsOf: log, encoding: .utf8)
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let time = Double(line[..<space]),
                  let object = (try? JSONSerialization.jsonObject(with: Data(line[line.index(after: space)...].utf8))) as? [String: Any]
            else { continue }
            guard let (address, ok) = Self.message(object, channel: channel) else { continue }
            guard ok else {
                refused += 1
                continue
            }
            accepted += 1
            addresses.insert(address)
            first = min(first, time)
            last = max(last, time)
        }
    }

    /// The address of a line that records a message, and whether the stand-in accepted it;
    /// `nil` for other lines (`READY`, Twilio's status callbacks).
    private static func message(_ object: [String: Any], channel: DeliveryChannel) -> (String, Bool)? {
        switch channel {
        case .sms:
            guard let path = object["path"] as? String, path.hasSuffix("/Messages.json"),
                  let to = (object["fields"] as? [String: Any])?["To"] as? String else { return nil }
            // The stand-in refuses only its reserved numbers, and those of an unknown caller.
            return (to, object["authorized"] as? Bool == true && !to.hasPrefix("+1555999") && !to.hasPrefix("+1555998"))
        case .email:
            guard let to = (object["rcpt_tos"] as? [String])?.first else { return nil }
            return (to, true)
        case .push:
            guard let path = object["path"] as? String, path.hasPrefix("/3/device/") else { return nil }
            return (String(path.dropFirst("/3/device/".count)), object["status"] as? Int == 200)
        }
    }
}
