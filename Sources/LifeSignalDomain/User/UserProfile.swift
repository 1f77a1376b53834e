import Foundation

/// A person's own profile: what they edit on the Profile screen and what their check-in
/// settings are (the `users` row, as `update-user-profile` returns it).
public struct UserProfile: Hashable, Codable, Sendable, Identifiable {
    public var id: UserID
    public var firstName: String
    public var lastName: String
    public var emergencyNote: String
    /// The phone shown to contacts (E.164). Sign-in uses the number verified by SMS.
    public var phone: String
    public var avatarURL: String?
    public var notificationsEnabled: Bool
    public var checkInIntervalSeconds: Int
    public var reminderLead: ReminderLead
    public var lastCheckIn: Date?
    public var deadline: Date?
    public var qrCodeID: UUID

    public init(
        id: UserID, firstName: String = "", lastName: String = "", emergencyNote: String = "", phone: String = "",
        avatarURL: String? = nil, notificationsEnabled: Bool = true,
        checkInIntervalSeconds: Int = Int(CheckInInterval.default.seconds), reminderLead: ReminderLead = .default,
        lastCheckIn: Date? = nil, deadline: Date? = nil, qrCodeID: UUID
    ) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.emergencyNote = emergencyNote
        self.phone = phone
        self.avatarURL = avatarURL
        self.notificationsEnabled = notificationsEnabled
        self.checkInIntervalSeconds = checkInIntervalSeconds
        self.reminderLead = reminderLead
        self.lastCheckIn = lastCheckIn
        self.deadline = deadline
        self.qrCodeID = qrCodeID
    }

    /// "First Last", or the phone when no name is set yet (a new account).
    public var displayName: String {
        let name = [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? phone : name
    }

    /// Onboarding is done once the person has given a first name.
    public var isOnboarded: Bool { !firstName.isEmpty }

    public var checkInStatus: CheckInStatus {
        CheckInStatus(lastCheckIn: lastCheckIn, interval: CheckInInterval(clamping: TimeInterval(checkInIntervalSeconds)))
    }

    public var settings: CheckInSettings {
        CheckInSettings(interval: CheckInInterval(clamping: TimeInterval(checkInIntervalSeconds)), reminderLead: reminderLead)
    }
}

/// A change to the profile: only the fields given change.
public struct ProfileUpdate: Sendable, Hashable, Codable {
    public var firstName: String?
    public var lastName: String?
    public var emergencyNote: String?
    /// The phone shown to contacts. Sign-in and invitations use the number verified by SMS.
    public var phone: String?
    /// An http(s) URL; empty removes the avatar.
    public var avatarURL: String?
    public var notificationsEnabled: Bool?

    public init(
        firstName: String? = nil, lastName: String? = nil, emergencyNote: String? = nil, phone: String? = nil,
        avatarURL: String? = nil, notificationsEnabled: Bool? = nil
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.emergencyNote = emergencyNote
        self.phone = phone
        self.avatarURL = avatarURL
        self.notificationsEnabled = notificationsEnabled
    }
}

/// A signed-in person: who they are and the tokens that prove it.
public struct AuthSession: Hashable, Codable, Sendable {
    public var userID: UserID
    public var phone: PhoneNumber
    public var accessToken: String
    public var refreshToken: String
    public var expiresAt: Date
    /// True when this sign-in created the account, so the app can start onboarding.
    public var isNewUser: Bool

    public init(userID: UserID, phone: PhoneNumber, accessToken: String, refreshToken: String, expiresAt: Date, isNewUser: Bool) {
        self.userID = userID
        self.phone = phone
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.isNewUser = isNewUser
    }
}

/// The outcome of a check-in: everything the check-in screen shows after it, so neither the
/// server nor the client reads the status again (issue 20, one round trip).
public struct CheckInResult: Hashable, Codable, Sendable {
    public var checkedInAt: Date
    /// The next deadline: `checkedInAt + interval`, or later while check-ins are paused.
    public var deadline: Date
    /// The interval the deadline was set with.
    public var interval: CheckInInterval

    public init(checkedInAt: Date, deadline: Date, interval: CheckInInterval) {
        self.checkedInAt = checkedInAt
        self.deadline = deadline
        self.interval = interval
    }

    /// The status the check-in leaves behind.
    public var status: CheckInStatus { CheckInStatus(lastCheckIn: checkedInAt, interval: interval) }
}
