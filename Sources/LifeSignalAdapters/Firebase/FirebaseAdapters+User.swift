import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// The profile: read through `get-user-profile`, changed through `update-user-profile`,
    /// followed by polling. Avatars go to Firebase Storage under `avatars/<uid>/avatar`, and
    /// the profile keeps their token download URL.
    public var userClient: UserClient {
        let adapters = self
        return UserClient(
            profile: { try await adapters.ownProfile() },
            update: { changes in try await adapters.updateProfile(changes) },
            uploadAvatar: { image, contentType in
                try UserClient.validateAvatar(image, contentType: contentType)
                let storage = try adapters.requireStorage()
                let path = Self.avatarObject(for: try await adapters.me())
                let url: String = try await Self.mapped {
                    let stored = try await storage.upload(image, to: path, contentType: contentType)
                    guard let token = stored.downloadTokens?.split(separator: ",").first else {
                        throw DomainError.internal("Firebase Storage gave the avatar no download token")
                    }
                    // The token survives an overwrite, so a version keeps caches from showing the old picture.
                    let version = stored.generation ?? String(Int64((Date().timeIntervalSince1970 * 1000).rounded()))
                    return try storage.downloadURL(for: path, token: String(token)).absoluteString + "&v=" + version
                }
                return try await adapters.updateProfile(ProfileUpdate(avatarURL: url))
            },
            removeAvatar: {
                let storage = try adapters.requireStorage()
                let path = Self.avatarObject(for: try await adapters.me())
                do { try await storage.delete(path) } catch let error as FirebaseStorageError where error.kind == .objectNotFound {
                    // Already gone: clearing the profile's URL is all that is left to do.
                } catch {
                    throw FirebaseErrorMapping.map(error)
                }
                return try await adapters.updateProfile(ProfileUpdate(avatarURL: ""))
            },
            resetQRCode: { try await adapters.resetQRCode() },
            stream: {
                let current = try await adapters.ownProfile()
                return adapters.polling(from: current) { last in
                    let profile = try await adapters.ownProfile()
                    return (profile, profile == last ? [] : [profile])
                }
            })
    }

    func updateProfile(_ changes: ProfileUpdate) async throws -> UserProfile {
        let reply: ProfileResponse = try await call("update-user-profile", UpdateUserProfileRequest(changes))
        return try UserProfile(wire: reply)
    }

    func requireStorage() throws -> FirebaseStorageClient {
        guard let storage else {
            throw DomainError.failedPrecondition("No Firebase Storage bucket is configured, so avatars cannot be stored")
        }
        return storage
    }

    /// The Storage object of a person's avatar: the same `<uid>/avatar` as the other
    /// backends' `avatars` bucket, under an `avatars/` folder of the project's one bucket.
    static func avatarObject(for user: UserID) -> String { "avatars/" + UserClient.avatarPath(for: user) }
}
