import Foundation
import LifeSignalDomain

extension BackendFunctions {
    static let accountFunctions: [String: Handler] = [
        "update-user-profile": { backend, caller, body in
            let request = try decode(UpdateUserProfileRequest.self, from: body)
            let profile = try await backend.profiles.update(caller: caller, ProfileUpdate(
                firstName: request.firstName, lastName: request.lastName, emergencyNote: request.emergencyNote,
                phone: request.phone, avatarURL: request.avatarUrl, notificationsEnabled: request.notificationsEnabled))
            return try encode(ProfileResponse(profile))
        },
        "update-check-in-settings": { backend, caller, body in
            let request = try decode(UpdateCheckInSettingsRequest.self, from: body)
            let interval = try request.checkInInterval.map { (seconds) throws(DomainError) in
                try CheckInInterval.seconds(seconds, field: "checkInInterval")
            }
            let lead = try request.reminderLead.map { (name) throws(DomainError) -> ReminderLead in
                guard let lead = ReminderLead(rawValue: name) else {
                    throw .invalidArgument("reminderLead is none, 30_minutes or 2_hours, not \"\(name)\"")
                }
                return lead
            }
            let profile = try await backend.profiles.updateCheckInSettings(caller: caller, interval: interval, reminderLead: lead)
            return try encode(ProfileResponse(profile))
        },
        "delete-user-account": { backend, caller, _ in
            try await backend.profiles.deleteAccount(caller: caller)
            return try encode(SuccessResponse())
        },
        "process-check-ins": { backend, caller, body in
            let request = try decode(ProcessCheckInsRequest.self, from: body)
            let report = try await backend.sweep.run(caller: caller, batchSize: request.batchSize ?? CheckInSweep.defaultBatchSize)
            return try encode(ProcessCheckInsResponse(success: true, report: report))
        },
    ]
}

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

    init(_ profile: UserProfile) {
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
        lastCheckInTime = BackendFunctions.time(profile.lastCheckIn)
        nextCheckInTime = BackendFunctions.time(profile.deadline)
        qrCodeId = profile.qrCodeID.uuidString.lowercased()
    }
}

/// `batchSize`: people claimed per transaction (1…``CheckInSweep/maximumBatchSize``).
public struct ProcessCheckInsRequest: Codable, Sendable { public var batchSize: Int? }

public struct ProcessCheckInsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var report: SweepReport
}
