import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions

/// Sign-in and phone-change codes as SMS through Twilio, when `serve` is given an account
/// (`LIFESIGNAL_TWILIO_*`); without one they go to the server's log.
struct TwilioSMSSender: SMSSender {
    let client: TwilioClient

    func send(code: OneTimeCode, to phone: PhoneNumber) async throws {
        try await send(code: code, to: phone, by: .sms)
    }

    /// By SMS, or read out twice on a call (digit by digit, for a landline) from the account's
    /// number; a Messaging Service cannot call.
    func send(code: OneTimeCode, to phone: PhoneNumber, by channel: CodeChannel) async throws {
        do {
            switch channel {
            case .sms:
                _ = try await client.send(to: phone.e164, body: "Your LifeSignal code is \(code.value)")
            case .call:
                guard case .number(let from) = client.configuration.sender else {
                    throw DomainError.failedPrecondition("This server cannot read codes out on a call; ask for a text")
                }
                let digits = code.value.map(String.init).joined(separator: ", ")
                let words = "Your LifeSignal code is \(digits)."
                let twiML = "<Response><Pause length=\"1\"/><Say>\(words)</Say><Pause length=\"1\"/><Say>Again: \(words)</Say></Response>"
                _ = try await client.call(to: phone.e164, from: from, twiML: twiML)
            }
        } catch let error as SMSError {
            // GoTrue answers a provider failure 500 `sms_send_failed`; a number Twilio will never
            // reach (invalid, or it replied STOP) is the caller's to fix.
            if error.isTransient { throw DomainError.internal("The code could not be sent by SMS; try again shortly") }
            throw DomainError.failedPrecondition("The code cannot be sent to this number by SMS: \(error)")
        }
    }

    /// The account the settings name, or `nil` when none is configured (codes go to the log).
    ///
    /// | variable | meaning |
    /// |---|---|
    /// | `LIFESIGNAL_TWILIO_ACCOUNT_SID` | the account (`AC…`) |
    /// | `LIFESIGNAL_TWILIO_AUTH_TOKEN` | its auth token |
    /// | `LIFESIGNAL_TWILIO_FROM` | a number of the account's (`+…`) or a Messaging Service (`MG…`) |
    /// | `LIFESIGNAL_TWILIO_API_URL` | `https://api.twilio.com` unless a stand-in's |
    static func configuration(_ values: ConfigurationValues) throws(DomainError) -> TwilioConfiguration? {
        let names = ["LIFESIGNAL_TWILIO_ACCOUNT_SID", "LIFESIGNAL_TWILIO_AUTH_TOKEN", "LIFESIGNAL_TWILIO_FROM"]
        let given = names.map { values[$0] }
        guard given.contains(where: { $0 != nil }) else { return nil }
        guard let sid = given[0], let token = given[1], let from = given[2] else {
            let missing = zip(names, given).filter { $0.1 == nil }.map(\.0)
            throw values.invalid(missing[0], "is missing: SMS through Twilio needs \(names.joined(separator: ", "))")
        }
        let sender: TwilioConfiguration.Sender = from.hasPrefix("MG") ? .messagingService(sid: from) : .number(from)
        var baseURL = TwilioConfiguration.productionURL
        if let text = values["LIFESIGNAL_TWILIO_API_URL"] {
            guard let url = URL(string: text), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw values.invalid("LIFESIGNAL_TWILIO_API_URL", "is not an http(s) URL")
            }
            baseURL = url
        }
        return TwilioConfiguration(accountSID: sid, authToken: token, sender: sender, baseURL: baseURL)
    }
}
