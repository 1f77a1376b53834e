import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// The signed-in person's own profile: read it, follow it, edit it, change the picture, and
/// issue a new QR code (which stops the old one from linking anyone).
@DependencyClient
public struct UserClient: Sendable {
    /// My profile as stored now.
    public var profile: @Sendable () async throws -> UserProfile
    /// Changes the given fields; every field is checked before anything is written.
    public var update: @Sendable (_ changes: ProfileUpdate) async throws -> UserProfile
    /// Stores an image (at most 5 MB, `image/*`) as my avatar and points my profile at it.
    public var uploadAvatar: @Sendable (_ image: Data, _ contentType: String) async throws -> UserProfile
    /// Deletes my avatar image and clears it from my profile.
    public var removeAvatar: @Sendable () async throws -> UserProfile
    /// A fresh QR code id; the old one no longer links.
    public var resetQRCode: @Sendable () async throws -> UUID
    /// My profile each time it changes (check-ins and settings included), starting after the
    /// call: read ``profile`` for the current value.
    public var stream: @Sendable () async throws -> AsyncThrowingStream<UserProfile, any Error>
}

extension UserClient {
    /// Where an avatar lives in the `avatars` bucket: under the owner's own folder, one name,
    /// so a new picture replaces the old.
    public static func avatarPath(for user: UserID) -> String { "\(user.description)/avatar" }

    /// Checked before any byte is sent, the same limits the storage bucket enforces.
    public static func validateAvatar(_ image: Data, contentType: String) throws(DomainError) {
        guard StorageBucket.avatars.accepts(contentType) else {
            throw .invalidArgument("An avatar must be an image, not \(contentType)")
        }
        guard image.count <= maximumAvatarBytes else {
            throw .invalidArgument("An avatar must be at most 5 MB; this one is \(image.count) bytes")
        }
        guard !image.isEmpty else { throw .invalidArgument("The avatar image is empty") }
    }

    public static let maximumAvatarBytes = StorageBucket.avatars.maximumBytes
}

extension UserClient: TestDependencyKey {
    public static let testValue = UserClient()

    public static var previewValue: UserClient {
        let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000d001") ?? UUID())
        let stored = LockIsolated(
            UserProfile(
                id: me, firstName: "Alex", lastName: "Morgan", emergencyNote: "Allergic to penicillin", phone: "+15550100009",
                lastCheckIn: Date(timeIntervalSince1970: 1_800_000_000 - 3 * 3600),
                deadline: Date(timeIntervalSince1970: 1_800_000_000 + 21 * 3600), qrCodeID: UUID()))
        let changes = AsyncThrowingStream<UserProfile, any Error>.makeStream()
        @Sendable func save(_ change: (inout UserProfile) -> Void) -> UserProfile {
            var profile = stored.value
            change(&profile)
            let saved = profile
            stored.setValue(saved)
            changes.continuation.yield(saved)
            return saved
        }
        return UserClient(
            profile: { stored.value },
            update: { update in
                save { profile in
                    if let first = update.firstName { profile.firstName = first }
                    if let last = update.lastName { profile.lastName = last }
                    if let note = update.emergencyNote { profile.emergencyNote = note }
                    if let phone = update.phone { profile.phone = phone }
                    if let avatar = update.avatarURL { profile.avatarURL = avatar.isEmpty ? nil : avatar }
                    if let enabled = update.notificationsEnabled { profile.notificationsEnabled = enabled }
                }
            },
            uploadAvatar: { image, type in
                try validateAvatar(image, contentType: type)
                return save { $0.avatarURL = "https://example.com/avatars/\(me.description)/avatar" }
            },
            removeAvatar: { save { $0.avatarURL = nil } },
            resetQRCode: { save { $0.qrCodeID = UUID() }.qrCodeID },
            stream: { changes.stream })
    }
}

extension DependencyValues {
    public var userClient: UserClient {
        get { self[UserClient.self] }
        set { self[UserClient.self] = newValue }
    }
}
