import Foundation
import LifeSignalDomain

/// Every field optional: only those given change. `avatarUrl: ""` removes the avatar.
public struct UpdateUserProfileRequest: Codable, Sendable {
    public var firstName: String?
    public var lastName: String?
    public var emergencyNote: String?
    public var phone: String?
    public var avatarUrl: String?
    public var notificationsEnabled: Bool?

    public init(_ changes: ProfileUpdate) {
        firstName = changes.firstName
        lastName = changes.lastName
        emergencyNote = changes.emergencyNote
        phone = changes.phone
        avatarUrl = changes.avatarURL
        notificationsEnabled = changes.notificationsEnabled
    }
}

/// `checkInInterval` in seconds (3600…604800); `reminderLead` `none`, `30_minutes` or `2_hours`.
public struct UpdateCheckInSettingsRequest: Codable, Sendable {
    public var checkInInterval: Double?
    public var reminderLead: String?

    public init(checkInInterval: Double? = nil, reminderLead: String? = nil) {
        self.checkInInterval = checkInInterval
        self.reminderLead = reminderLead
    }
}

/// The profile after a change (reply of `update-user-profile` and `update-check-in-settings`).
public struct ProfileResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var userId: String
    public var firstName: String
    public var lastName: String
    public var emergencyNote: String
    public var phone: String
    public var avatarUrl: String?
    public var notificationsEnabled: Bool
    public var checkInInterval: Int
    public var reminderLead: String
    public var lastCheckInTime: String?
    public var nextCheckInTime: String?
    public var qrCodeId: String

    public init(_ profile: UserProfile) {
        success = true
        userId = profile.id.description
        firstName = profile.firstName
        lastName = profile.lastName
        emergencyNote = profile.emergencyNote
        phone = profile.phone
        avatarUrl = profile.avatarURL
        notificationsEnabled = profile.notificationsEnabled
        checkInInterval = profile.checkInIntervalSeconds
        reminderLead = profile.reminderLead.rawValue
        lastCheckInTime = WireField.time(profile.lastCheckIn)
        nextCheckInTime = WireField.time(profile.deadline)
        qrCodeId = profile.qrCodeID.uuidString.lowercased()
    }

    public init(
        success: Bool, userId: String, firstName: String, lastName: String, emergencyNote: String, phone: String, avatarUrl: String? = nil,
        notificationsEnabled: Bool, checkInInterval: Int, reminderLead: String, lastCheckInTime: String? = nil, nextCheckInTime: String? = nil, qrCodeId: String
    ) {
        self.success = success
        self.userId = userId
        self.firstName = firstName
        self.lastName = lastName
        self.emergencyNote = emergencyNote
        self.phone = phone
        self.avatarUrl = avatarUrl
        self.notificationsEnabled = notificationsEnabled
        self.checkInInterval = checkInInterval
        self.reminderLead = reminderLead
        self.lastCheckInTime = lastCheckInTime
        self.nextCheckInTime = nextCheckInTime
        self.qrCodeId = qrCodeId
    }
}

/// `batchSize`: people claimed per transaction (1…``CheckInSweep/maximumBatchSize``).
public struct ProcessCheckInsRequest: Codable, Sendable {
    public var batchSize: Int?
    public init(batchSize: Int? = nil) { self.batchSize = batchSize }
}

public struct ProcessCheckInsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var report: SweepReport

    public init(success: Bool, report: SweepReport) {
        self.success = success
        self.report = report
    }
}
