import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// Read-only functions for backends whose clients cannot query tables directly.
    ///
    /// Supabase clients read the profile, notifications and check-in history through
    /// PostgREST under row-level security; a Firebase client reads the profile as the
    /// Firestore document `users/{uid}` (``DocumentService``), but notifications and history
    /// have no document in the original app, so those reads (and `get-user-profile`, for any
    /// client that prefers a function) are offered here, each limited to the caller's own
    /// rows exactly as the table policies are.
    static let readFunctions: [Registration] = [
        handle(CloudFunctions.getUserProfile) { backend, caller, _ in
            ProfileResponse(try await backend.profiles.profile(caller: caller))
        },
        handle(CloudFunctions.getNotifications) { backend, caller, request in
            let limit = request.limit ?? 100
            guard (1...1000).contains(limit) else { throw DomainError.invalidArgument("limit must be between 1 and 1000, not \(limit)") }
            let records = try await backend.notifications.notifications(caller: caller, limit: limit)
            return GetNotificationsResponse(success: true, notifications: records.map(NotificationResponse.init))
        },
        handle(CloudFunctions.getCheckInHistory) { backend, caller, request in
            let entries = try await backend.checkIns.history(caller: caller, limit: request.limit ?? 50)
            return CheckInHistoryResponse(success: true, checkIns: entries.map(CheckInEntryResponse.init))
        },
    ]
}
