import Foundation

/// A person's profile as every backend stores it.
public struct UserProfile: Hashable, Codable, Sendable, Identifiable {
    public var id: UserID
    public var phone: PhoneNumber
    public var firstName: String
    public var lastName: String
    public var emergencyNote: String
    public var checkInInterval: CheckInInterval
    public var reminderLead: ReminderLead
    public var lastCheckIn: Date?
    public var qrCodeId: UUID
    public var createdAt: Date

    public init(
        id: UserID, phone: PhoneNumber, firstName: String = "", lastName: String = "",
        emergencyNote: String = "", checkInInterval: CheckInInterval = .default,
        reminderLead: ReminderLead = .default, lastCheckIn: Date? = nil,
        qrCodeId: UUID, createdAt: Date
    ) {
        self.id = id
        self.phone = phone
        self.firstName = firstName
        self.lastName = lastName
        self.emergencyNote = emergencyNote
        self.checkInInterval = checkInInterval
        self.reminderLead = reminderLead
        self.lastCheckIn = lastCheckIn
        self.qrCodeId = qrCodeId
        self.createdAt = createdAt
    }

    public var checkInStatus: CheckInStatus {
        CheckInStatus(lastCheckIn: lastCheckIn, interval: checkInInterval)
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

/// The outcome of a check-in.
public struct CheckInResult: Hashable, Codable, Sendable {
    public var checkedInAt: Date
    public var deadline: Date

    public init(checkedInAt: Date, deadline: Date) {
        self.checkedInAt = checkedInAt
        self.deadline = deadline
    }
}
