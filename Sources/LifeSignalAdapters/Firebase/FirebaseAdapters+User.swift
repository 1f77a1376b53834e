import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// The profile as the original app kept it: the Firestore document `users/{uid}` (read
    /// with `GET`, changed with a `PATCH` masked to the fields changed, with
    /// `currentDocument.exists=true`), followed by polling that document. Avatars go to
    /// Firebase Storage under `avatars/<uid>/avatar`, and the document keeps their token
    /// download URL (`profileImageURL`). A new QR code still comes from `reset-qr-code`.
    public var userClient: UserClient {
        let adapters = self
        return UserClient(
            profile: { try await adapters.ownProfile() },
            update: { changes in try await adapters.updateProfile(changes) },
            uploadAvatar: { image, contentType in
                try UserClient.validateAvatar(image, contentType: contentType)
                // Firebase Storage's rules see only the declared type: the bytes are checked here.
                try FileRules.validate(bucket: "avatars", data: image, contentType: contentType)
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
            resetQRCode: { try await adapters.resetQRCode().id },
            stream: {
                let current = try await adapters.ownProfile()
                return adapters.polling(from: current) { last in
                    let profile = try await adapters.ownProfile()
                    return (profile, profile == last ? [] : [profile])
                }
            })
    }

    /// My own profile: the document `users/{uid}`.
    func ownProfile() async throws -> UserProfile {
        try await asSignedIn { firestore, me in
            let path = "users/\(me)"
            guard let document = try await Self.documents(path, { try await firestore.documentIfExists(path) }) else {
                throw DomainError.notFound("User \(me)")
            }
            return try FirestorePeopleMapping.profile(try FirestoreDocumentMapping.snapshot(document))
        }
    }

    /// Changes the fields `changes` gives, each under its document name; the backend's rules
    /// (the owner's whitelist, the profile's own checks) decide, as Firestore's rules would.
    func updateProfile(_ changes: ProfileUpdate) async throws -> UserProfile {
        let fields = try FirestorePeopleMapping.fields(changes)
        guard !fields.isEmpty else { return try await ownProfile() }
        return try await asSignedIn { firestore, me in
            let path = "users/\(me)"
            let document = try await Self.documents(path) {
                try await firestore.patchDocument(
                    path, fields: FirestoreDocumentMapping.wire(fields), updateMask: fields.keys.sorted(), precondition: .exists(true))
            }
            return try FirestorePeopleMapping.profile(try FirestoreDocumentMapping.snapshot(document))
        }
    }

    /// Runs `body` with Firestore as the signed-in person. Signed out — or found signed out
    /// because the server refused the refresh token — is ``DomainError/unauthenticated``,
    /// and followers of the session are told, as after a function call.
    func asSignedIn<T>(_ body: (FirestoreClient, UserID) async throws -> T) async throws -> T {
        do {
            let firestore = try await requireFirestore()
            return try await body(firestore, try await me())
        } catch DomainError.unauthenticated {
            await forgetEndedSession()
            throw DomainError.unauthenticated
        }
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
