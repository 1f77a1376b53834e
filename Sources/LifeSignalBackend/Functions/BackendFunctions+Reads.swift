import Foundation
import LifeSignalDomain

extension BackendFunctions {
    /// Read-only functions for backends whose clients cannot query tables directly.
    ///
    /// Supabase clients read the profile, notifications and check-in history through
    /// PostgREST under row-level security; a Firebase client reads the profile as the
    /// Firestore document `users/{uid}` (``DocumentService``), but notifications and history
    /// have no document in the original app, so those reads (and `get-user-profile`, for any
    /// client that prefers a function) are offered here, each limited to the caller's own
    /// rows exactly as the table policies are.
    static let readFunctions: [String: Handler] = [
        "get-user-profile": { backend, caller, _ in
            try encode(ProfileResponse(try await backend.profiles.profile(caller: caller)))
        },
        "get-notifications": { backend, caller, body in
            let request = try decode(GetNotificationsRequest.self, from: body)
            let limit = request.limit ?? 100
            guard (1...1000).contains(limit) else { throw DomainError.invalidArgument("limit must be between 1 and 1000, not \(limit)") }
            let records = try await backend.notifications.notifications(caller: caller, limit: limit)
            return try encode(GetNotificationsResponse(success: true, notifications: records.map(NotificationResponse.init)))
        },
        "get-check-in-history": { backend, caller, body in
            let request = try decode(CheckInHistoryRequest.self, from: body)
            let entries = try await backend.checkIns.history(caller: caller, limit: request.limit ?? 50)
            return try encode(CheckInHistoryResponse(success: true, checkIns: entries.map(CheckInEntryResponse.init)))
        },
    ]
}

/// `get-notifications`: at most `limit` (1…1000, default 100), newest first.
public struct GetNotificationsRequest: Codable, Sendable {
    public var limit: Int?
    public init(limit: Int? = nil) { self.limit = limit }
}

/// One notification on the wire: ids lower-case, times in ``Timestamp`` form.
public struct NotificationResponse: Codable, Sendable, Hashable {
    public var id: String
    public var userId: String
    public var type: String
    public var title: String
    public var body: String
    public var contactId: String?
    public var isRead: Bool
    public var createdAt: String

    init(_ record: NotificationRecord) {
        id = record.id.uuidString.lowercased()
        userId = record.userID.description
        type = record.type.rawValue
        title = record.title
        body = record.body
        contactId = record.contactID?.description
        isRead = record.isRead
        createdAt = Timestamp.format(record.createdAt)
    }
}

public struct GetNotificationsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var notifications: [NotificationResponse]
}

/// `get-check-in-history`: at most `limit` (1…500, default 50), newest first.
public struct CheckInHistoryRequest: Codable, Sendable {
    public var limit: Int?
    public init(limit: Int? = nil) { self.limit = limit }
}

public struct CheckInEntryResponse: Codable, Sendable, Hashable {
    public var id: String
    public var checkedInAt: String
    /// A ``CheckInSource`` raw value.
    public var source: String

    init(_ entry: CheckInEntry) {
        id = entry.id.uuidString.lowercased()
        checkedInAt = Timestamp.format(entry.checkedInAt)
        source = entry.source.rawValue
    }
}

public struct CheckInHistoryResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var checkIns: [CheckInEntryResponse]
}
