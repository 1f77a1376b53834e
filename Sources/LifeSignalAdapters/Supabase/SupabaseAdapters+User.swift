import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

extension SupabaseAdapters {
    /// The profile: read through PostgREST (the `users` policy shows me my row), changed
    /// through `update-user-profile`, avatars through Storage's `avatars` bucket, followed
    /// through Realtime UPDATEs of my row.
    public var userClient: UserClient {
        let adapters = self
        let client = self.client
        return UserClient(
            profile: { try await adapters.ownProfile() },
            update: { changes in
                let reply: ProfileResponse = try await adapters.call(CloudFunctions.updateUserProfile, UpdateUserProfileRequest(changes))
                return try UserProfile(wire: reply)
            },
            uploadAvatar: { image, contentType in
                try UserClient.validateAvatar(image, contentType: contentType)
                let url: URL = try await Self.mapped {
                    let me = try await client.auth.session.user.id
                    let path = UserClient.avatarPath(for: UserID(me))
                    let bucket = client.storage.from("avatars")
                    // Storage's own refusals (415 for bytes that are no picture) in the domain's words.
                    _ = try await Self.files { try await bucket.upload(path, data: image, options: FileOptions(contentType: contentType, upsert: true)) }
                    return try bucket.getPublicURL(path: path)
                }
                // A new query string per upload, so caches do not keep showing the old picture.
                let millis = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                let reply: ProfileResponse = try await adapters.call(
                    CloudFunctions.updateUserProfile, UpdateUserProfileRequest(ProfileUpdate(avatarURL: url.absoluteString + "?v=\(millis)")))
                return try UserProfile(wire: reply)
            },
            removeAvatar: {
                try await Self.mapped {
                    let me = try await client.auth.session.user.id
                    _ = try await client.storage.from("avatars").remove(paths: [UserClient.avatarPath(for: UserID(me))])
                }
                let reply: ProfileResponse = try await adapters.call(CloudFunctions.updateUserProfile, UpdateUserProfileRequest(ProfileUpdate(avatarURL: "")))
                return try UserProfile(wire: reply)
            },
            resetQRCode: { try await adapters.resetQRCode().id },
            stream: {
                try await Self.mapped {
                    let me = try await client.auth.session.user.id.uuidString.lowercased()
                    let channel = client.channel("user-\(me)-\(UUID().uuidString.lowercased())")
                    let updates = channel.postgresChange(UpdateAction.self, table: "users", filter: "id=eq.\(me)")
                    try await channel.subscribeWithError()
                    return AsyncThrowingStream { continuation in
                        let task = Task {
                            for await update in updates {
                                do {
                                    let row = try update.decodeRecord(as: UserRow.self, decoder: SupabaseJSON.makeDecoder())
                                    continuation.yield(try row.profile())
                                } catch {
                                    continuation.finish(throwing: DomainError.internal("A profile change did not decode: \(error)"))
                                    return
                                }
                            }
                            continuation.finish()
                        }
                        continuation.onTermination = { _ in
                            task.cancel()
                            Task { await client.realtimeV2.removeChannel(channel) }
                        }
                    }
                }
            })
    }

    /// My `users` row through PostgREST.
    func ownProfile() async throws -> UserProfile {
        let client = self.client
        return try await Self.mapped {
            let me = try await client.auth.session.user.id
            let row: UserRow = try await client.from("users").select(UserRow.columns)
                .eq("id", value: me.uuidString.lowercased()).single().execute().value
            return try row.profile()
        }
    }
}

/// The `users` columns a profile is made of, as PostgREST and Realtime send them.
struct UserRow: Decodable {
    var id: UUID
    var firstName: String
    var lastName: String
    var emergencyNote: String
    var phone: String
    var avatarUrl: String?
    var notificationsEnabled: Bool
    var checkInIntervalSeconds: Int
    var reminderLeadSeconds: Int?
    var lastCheckInAt: Date?
    var checkInDeadline: Date?
    var qrCodeId: UUID

    static let columns = """
        id,first_name,last_name,emergency_note,phone,avatar_url,notifications_enabled,check_in_interval_seconds,\
        reminder_lead_seconds,last_check_in_at,check_in_deadline,qr_code_id
        """

    enum CodingKeys: String, CodingKey {
        case id, phone
        case firstName = "first_name"
        case lastName = "last_name"
        case emergencyNote = "emergency_note"
        case avatarUrl = "avatar_url"
        case notificationsEnabled = "notifications_enabled"
        case checkInIntervalSeconds = "check_in_interval_seconds"
        case reminderLeadSeconds = "reminder_lead_seconds"
        case lastCheckInAt = "last_check_in_at"
        case checkInDeadline = "check_in_deadline"
        case qrCodeId = "qr_code_id"
    }

    func profile() throws -> UserProfile {
        UserProfile(
            id: UserID(id), firstName: firstName, lastName: lastName, emergencyNote: emergencyNote, phone: phone,
            avatarURL: avatarUrl, notificationsEnabled: notificationsEnabled, checkInIntervalSeconds: checkInIntervalSeconds,
            reminderLead: try ReminderLead(seconds: reminderLeadSeconds.map(TimeInterval.init)),
            lastCheckIn: lastCheckInAt, deadline: checkInDeadline, qrCodeID: qrCodeId)
    }
}

extension UserProfile {
    /// The reply of `update-user-profile` / `update-check-in-settings`.
    init(wire: ProfileResponse) throws {
        guard let lead = ReminderLead(rawValue: wire.reminderLead) else {
            throw DomainError.internal("The server sent reminder lead \"\(wire.reminderLead)\"")
        }
        self.init(
            id: try WireParse.userID(wire.userId), firstName: wire.firstName, lastName: wire.lastName,
            emergencyNote: wire.emergencyNote, phone: wire.phone, avatarURL: wire.avatarUrl,
            notificationsEnabled: wire.notificationsEnabled, checkInIntervalSeconds: wire.checkInInterval, reminderLead: lead,
            lastCheckIn: try WireParse.date(wire.lastCheckInTime), deadline: try WireParse.date(wire.nextCheckInTime),
            qrCodeID: try WireParse.uuid(wire.qrCodeId))
    }
}
