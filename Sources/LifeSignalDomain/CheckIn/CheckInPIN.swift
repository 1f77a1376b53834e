import Foundation

/// Whether a person's check-ins need a PIN, and whether they also have a duress PIN.
///
/// With a PIN set, every check-in carries it: the app, the check-in link, an SMS reply
/// ("OK 4821"), a phone call and the command line. A duress PIN checks in exactly as the PIN
/// does, as far as anything the person sees or hears can tell, and quietly tells every
/// responder that the person may be forced to check in. The PINs themselves never leave the
/// server: they are kept hashed like passwords.
public struct CheckInPINSettings: Hashable, Codable, Sendable {
    public var hasPIN: Bool
    public var hasDuressPIN: Bool

    public init(hasPIN: Bool = false, hasDuressPIN: Bool = false) {
        self.hasPIN = hasPIN
        self.hasDuressPIN = hasDuressPIN
    }
}

/// The rules a PIN follows, the same on every channel.
public enum CheckInPIN {
    /// 4 to 8 digits: easy to key on a phone's pad, in a text or on a call.
    public static let lengths = 4...8

    /// Refuses a PIN that is not 4 to 8 digits.
    public static func validate(_ pin: String) throws(DomainError) {
        guard lengths.contains(pin.count), pin.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw .invalidArgument("A check-in PIN is 4 to 8 digits")
        }
    }

    /// Refuses a pair that cannot work: a duress PIN without a PIN, or one equal to it.
    public static func validate(pin: String?, duressPIN: String?) throws(DomainError) {
        if let pin { try validate(pin) }
        guard let duressPIN else { return }
        try validate(duressPIN)
        guard let pin else { throw .invalidArgument("A duress PIN needs a check-in PIN beside it") }
        guard pin != duressPIN else { throw .invalidArgument("The duress PIN must differ from the check-in PIN") }
    }
}
