import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// The profile: read through `get-user-profile`, changed through `update-user-profile`,
    /// followed by polling. Avatars are refused for now: they belong in Firebase Storage,
    /// which these adapters do not write yet.
    public var userClient: UserClient {
        let adapters = self
        return UserClient(
            profile: { try await adapters.ownProfile() },
            update: { changes in
                let reply: ProfileResponse = try await adapters.call("update-user-profile", UpdateUserProfileRequest(changes))
                return try UserProfile(wire: reply)
            },
            uploadAvatar: { image, contentType in
                try UserClient.validateAvatar(image, contentType: contentType)
                throw Self.avatarsUnsupported
            },
            removeAvatar: { throw Self.avatarsUnsupported },
            resetQRCode: { try await adapters.resetQRCode() },
            stream: {
                let current = try await adapters.ownProfile()
                return adapters.polling(from: current) { last in
                    let profile = try await adapters.ownProfile()
                    return (profile, profile == last ? [] : [profile])
                }
            })
    }

    static let avatarsUnsupported = DomainError.failedPrecondition(
        "Avatars are not stored on Firebase yet; choose local or supabase for the user capability to change one")
}
