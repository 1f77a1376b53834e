import ArgumentParser
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer
import Logging

/// `serve`'s bounds on what leaves by paid channels (issue 31), the captcha on sign-in, and
/// where `/metrics` is served. Unset, the defaults hold (README, "Reaching people").
///
/// | variable | meaning |
/// |---|---|
/// | `LIFESIGNAL_SMS_COUNTRIES` | ISO codes SMS may go to (`US,CA`); default: the country of `LIFESIGNAL_TWILIO_FROM` |
/// | `LIFESIGNAL_CAPTCHA_PROVIDER`, `_SECRET`, `_URL` | `hcaptcha` or `turnstile`, its secret key, another `siteverify` URL |
/// | `LIFESIGNAL_METRICS_TOKEN` | a bearer token that also opens `/metrics` on the public port |
struct ServeSendingOptions: ParsableArguments {
    @Option(help: "Messages one phone number or mailbox receives on one channel in a day, alerts to responders aside (default 20).")
    var messagesPerDestinationPerDay: Int?
    @Option(help: "Paid messages (SMS, email) one person causes others to receive in a day (default 40).") var messagesPerSenderPerDay: Int?
    @Option(help: "The server's SMS a day; past it only alerts go by SMS (default 2000).") var smsPerDay: Int?
    @Option(help: "The server's emails a day; past it only alerts go by email (default 5000).") var emailPerDay: Int?
    @Option(help: "The server's phone calls a day; past it alerts still call, and the operator is warned (default 500).") var callsPerDay: Int?
    @Option(help: "Alert rounds one responder hears about one person by SMS or email in an hour (default 3).") var alertRoundsPerHour: Int?
    @Option(help: "Sign-in codes one client address may have sent to one number in a day (default 3).")
    var codesPerNumberPerAddressPerDay: Int?
    @Option(help: "Address of the /metrics listener (default 127.0.0.1).") var metricsHost = "127.0.0.1"
    @Option(help: "Port of the /metrics listener; 0 serves none (default: the server's port + 1).") var metricsPort: Int?

    func validate() throws {
        let zeroOrMore: [(String, Int?)] = [
            ("--messages-per-destination-per-day", messagesPerDestinationPerDay), ("--messages-per-sender-per-day", messagesPerSenderPerDay),
            ("--sms-per-day", smsPerDay), ("--email-per-day", emailPerDay), ("--alert-rounds-per-hour", alertRoundsPerHour),
            ("--calls-per-day", callsPerDay),
        ]
        for (flag, value) in zeroOrMore where (value ?? 0) < 0 { throw ValidationError("\(flag) must be 0 or more, not \(value ?? 0)") }
        if let codesPerNumberPerAddressPerDay, codesPerNumberPerAddressPerDay < 1 {
            throw ValidationError("--codes-per-number-per-address-per-day must be 1 or more, not \(codesPerNumberPerAddressPerDay)")
        }
        if let metricsPort, !(0...65535).contains(metricsPort) { throw ValidationError("--metrics-port must be a port, not \(metricsPort)") }
    }

    /// The caps, the SMS countries and the captcha, into the backend's configuration.
    func apply(to configuration: inout LifeSignalBackend.Configuration, values: ConfigurationValues, twilio: TwilioConfiguration?) throws {
        var rules = configuration.deliveryRules
        if let messagesPerDestinationPerDay { rules.caps.perDestinationPerDay = messagesPerDestinationPerDay }
        if let messagesPerSenderPerDay { rules.caps.perSenderPerDay = messagesPerSenderPerDay }
        if let smsPerDay { rules.caps.smsPerDay = smsPerDay }
        if let emailPerDay { rules.caps.emailPerDay = emailPerDay }
        if let callsPerDay { rules.caps.callsPerDay = callsPerDay }
        if let alertRoundsPerHour { rules.caps.alertRoundsPerHour = alertRoundsPerHour }
        if let codesPerNumberPerAddressPerDay { configuration.signInLimits.codesPerNumberPerAddressPerDay = codesPerNumberPerAddressPerDay }
        rules.smsCountries = try Self.smsCountries(values, twilio: twilio)
        let logger = Logger(label: "lifesignal.deliveries")
        rules.observe = { held in
            // The operator must hear that the budget is spent while alerts still go out.
            if held.reason == .overBudget {
                logger.warning("the daily \(held.channel.rawValue) budget is spent; an alert (\(held.kind)) went out past it")
            }
        }
        configuration.deliveryRules = rules
        configuration.captcha = try Self.captcha(values)
    }

    /// Where `/metrics` is served: its own listener, and the public port for a bearer token.
    func apply(to configuration: inout ServerConfiguration, values: ConfigurationValues) {
        // The port after the server's, unless that is past the last port (then none unless asked).
        let port = metricsPort ?? (configuration.port == 0 ? 0 : configuration.port + 1)
        configuration.metricsListener = metricsPort == 0 || port > 65535 ? nil : MetricsListener(host: metricsHost, port: port)
        configuration.metricsToken = values["LIFESIGNAL_METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `LIFESIGNAL_SMS_COUNTRIES`, else the sending number's country; a server that sends no SMS
    /// needs none. A Messaging Service (`MG…`) has no number, so the operator must name them.
    static func smsCountries(_ values: ConfigurationValues, twilio: TwilioConfiguration?) throws -> SMSCountries? {
        guard let twilio else { return nil }
        if let text = values["LIFESIGNAL_SMS_COUNTRIES"] {
            do { return try SMSCountries.parse(text) } catch { throw values.invalid("LIFESIGNAL_SMS_COUNTRIES", error.message) }
        }
        guard case .number(let number) = twilio.sender, let countries = SMSCountries.defaultFor(sender: number) else {
            throw values.invalid(
                "LIFESIGNAL_SMS_COUNTRIES", "is missing: the sender is not a number of a known country, so name the countries SMS may go to (US,CA,…)")
        }
        return countries
    }

    static func captcha(_ values: ConfigurationValues) throws -> (any CaptchaVerifier)? {
        guard let name = values["LIFESIGNAL_CAPTCHA_PROVIDER"] else { return nil }
        guard let provider = SiteverifyCaptcha.Provider(rawValue: name.lowercased()) else {
            throw values.invalid("LIFESIGNAL_CAPTCHA_PROVIDER", "is hcaptcha or turnstile, not \(name)")
        }
        guard let secret = values["LIFESIGNAL_CAPTCHA_SECRET"], !secret.isEmpty else {
            throw values.invalid("LIFESIGNAL_CAPTCHA_SECRET", "is missing: a captcha needs its secret key")
        }
        var url: URL?
        if let text = values["LIFESIGNAL_CAPTCHA_URL"] {
            guard let parsed = URL(string: text), parsed.scheme == "https" || parsed.scheme == "http", parsed.host != nil else {
                throw values.invalid("LIFESIGNAL_CAPTCHA_URL", "is not an http(s) URL")
            }
            url = parsed
        }
        return SiteverifyCaptchaVerifier(client: SiteverifyCaptcha(provider: provider, secret: secret, url: url))
    }

    /// The numbers in force, for the banner.
    static func summary(of configuration: LifeSignalBackend.Configuration) -> String {
        let caps = configuration.deliveryRules.caps
        let countries = configuration.deliveryRules.smsCountries.map { " to \($0)" } ?? ""
        return
            "SMS\(countries), \(caps.smsPerDay) SMS, \(caps.emailPerDay) emails and \(caps.callsPerDay) calls a day; \(caps.perDestinationPerDay) a number or mailbox, "
            + "\(caps.perSenderPerDay) a sender; \(caps.alertRoundsPerHour) alert rounds a responder an hour"
            + (configuration.captcha == nil ? "" : "; captcha on codes and sign-up")
    }
}

/// `siteverify` as the backend asks it.
struct SiteverifyCaptchaVerifier: CaptchaVerifier {
    let client: SiteverifyCaptcha

    func verify(token: String, remoteIP: String?) async throws -> Bool { try await client.verify(token: token, remoteIP: remoteIP) }
}
