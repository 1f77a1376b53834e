import Foundation
import LifeSignalDomain

/// `set-check-in-pins` request: both PINs at once (`pin` absent removes both; `duressPin`
/// absent removes the duress PIN). The caller's password is not asked: the PINs guard
/// check-ins, not the account, and a session already proves who is setting them.
public struct SetCheckInPINsRequest: Codable, Sendable {
    public var pin: String?
    public var duressPin: String?
    public init(pin: String?, duressPin: String?) {
        self.pin = pin
        self.duressPin = duressPin
    }
}

/// `get-check-in-pins` and `set-check-in-pins` reply: whether each PIN is set, never the PINs.
public struct CheckInPINsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var hasPin: Bool
    public var hasDuressPin: Bool

    public init(_ settings: CheckInPINSettings) {
        success = true
        hasPin = settings.hasPIN
        hasDuressPin = settings.hasDuressPIN
    }

    public var settings: CheckInPINSettings { CheckInPINSettings(hasPIN: hasPin, hasDuressPIN: hasDuressPin) }
}
