import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    static let accountFunctions: [Registration] = [
        handle(CloudFunctions.updateUserProfile) { backend, caller, request in
            let profile = try await backend.profiles.update(
                caller: caller,
                ProfileUpdate(
                    firstName: request.firstName, lastName: request.lastName, emergencyNote: request.emergencyNote,
                    phone: request.phone, avatarURL: request.avatarUrl, notificationsEnabled: request.notificationsEnabled))
            return ProfileResponse(profile)
        },
        handle(CloudFunctions.updateCheckInSettings) { backend, caller, request in
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
            return ProfileResponse(profile)
        },
        handle(CloudFunctions.deleteUserAccount) { backend, caller, _ in
            try await backend.profiles.deleteAccount(caller: caller)
            return SuccessResponse()
        },
        handle(CloudFunctions.processCheckIns) { backend, caller, request in
            let report = try await backend.sweep.run(caller: caller, batchSize: request.batchSize ?? CheckInSweep.defaultBatchSize)
            return ProcessCheckInsResponse(success: true, report: report)
        },
    ]
}
