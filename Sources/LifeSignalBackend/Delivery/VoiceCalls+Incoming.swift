import Foundation
import LifeSignalDomain

/// Calls *to* the server's number (the number's voice webhook, `POST /hooks/twilio/voice-in`):
/// a person with a landline or a flip phone calls to check in, "Press 1 to check in", then
/// their PIN when they have one (a duress PIN sounds the same). Only a call from an account's
/// verified phone can check anyone in; caller ID is easier to forge than a session, so it
/// proves what the sign-in code that verified the number proved, and a PIN is the person's
/// guard against more. Anyone else hears what the number is, and nothing happens.
extension VoiceCalls {
    public static let strangerWords = "This is LifeSignal. This number takes check-ins from the people who use LifeSignal, from the phone they signed up with."

    /// What an incoming call from `number` hears.
    public func incoming(from number: String) async throws -> Script {
        guard let phone = try? PhoneNumber(number), let user = try await SMSReplies.verifiedAccount(phone, in: database),
            let person = try await database.query("SELECT first_name FROM users WHERE id = \(user)").first
        else { return .over(Self.strangerWords) }
        return .callIn(firstName: person.optionalString("first_name") ?? "")
    }

    /// A key pressed on an incoming call's menu.
    public func pressedIncoming(_ digits: String, from number: String) async throws -> Answer {
        guard let phone = try? PhoneNumber(number), let user = try await SMSReplies.verifiedAccount(phone, in: database) else {
            return .done(Self.strangerWords)
        }
        guard digits.first == "1" else { return .again }
        let needsPIN = try await database.query("SELECT 1 AS present FROM lifesignal_check_in_pins WHERE user_id = \(user)").first != nil
        return needsPIN ? .askPIN : try await checkIn(user, pin: nil)
    }

    /// The PIN keyed on an incoming call.
    public func keyedPINIncoming(_ pin: String, from number: String) async throws -> Answer {
        guard let phone = try? PhoneNumber(number), let user = try await SMSReplies.verifiedAccount(phone, in: database) else {
            return .done(Self.strangerWords)
        }
        return try await checkIn(user, pin: pin)
    }
}
