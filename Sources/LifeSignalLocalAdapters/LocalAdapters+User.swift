import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// The profile on the embedded backend; avatars go to its `avatars` bucket, and the
    /// stream follows the backend's change feed for my `users` row.
    public var userClient: UserClient {
        let backend = self.backend
        let publicURL = self.publicURL
        return UserClient(
            profile: { try await backend.profiles.profile(caller: try await caller()) },
            update: { try await backend.profiles.update(caller: try await caller(), $0) },
            uploadAvatar: { image, contentType in
                try UserClient.validateAvatar(image, contentType: contentType)
                let caller = try await caller()
                let path = UserClient.avatarPath(for: try caller.requireUser())
                let stored = try await Self.storage {
                    try await backend.files.upload(caller: caller, bucket: "avatars", path: path, data: image, contentType: contentType, upsert: true)
                }
                let url = Self.avatarURL(base: publicURL, path: path, version: stored.updatedAt)
                return try await backend.profiles.update(caller: caller, ProfileUpdate(avatarURL: url))
            },
            removeAvatar: {
                let caller = try await caller()
                let path = UserClient.avatarPath(for: try caller.requireUser())
                _ = try await Self.storage { try await backend.files.remove(caller: caller, bucket: "avatars", paths: [path]) }
                return try await backend.profiles.update(caller: caller, ProfileUpdate(avatarURL: ""))
            },
            resetQRCode: { try await backend.contacts.resetQRCode(caller: try await caller()) },
            stream: {
                let caller = try await caller()
                let me = try caller.requireUser()
                // Subscribed before returning, so nothing committed after this is missed.
                let events = backend.changes.subscribe(ChangeFeed.Filter(table: "users", ownerID: me))
                return AsyncThrowingStream { continuation in
                    let task = Task {
                        for await event in events where event.kind == .update {
                            do { continuation.yield(try await backend.profiles.profile(caller: caller)) } catch {
                                continuation.finish(throwing: error)
                                return
                            }
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            })
    }

    /// The public URL of an avatar, versioned by its upload time so a new picture is not
    /// hidden by a cached old one.
    static func avatarURL(base: URL, path: String, version: Date) -> String {
        let millis = Int64((version.timeIntervalSince1970 * 1000).rounded())
        return base.appendingPathComponent("storage/v1/object/public/avatars/\(path)").absoluteString + "?v=\(millis)"
    }

    /// Storage refusals in the domain's words.
    static func storage<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let failure as StorageFailure {
            switch failure {
            case .tooLarge(let limit): throw DomainError.invalidArgument("The file is larger than \(limit) bytes")
            case .unsupportedType(let type): throw DomainError.invalidArgument("Files of type \(type) are not accepted here")
            case .rejectedImage(let why): throw DomainError.invalidArgument(why.message)
            case .objectNotFound(let path): throw DomainError.notFound("File \(path)")
            case .bucketNotFound(let name): throw DomainError.notFound("Bucket \(name)")
            case .invalidPath(let path): throw DomainError.invalidArgument("Invalid file path \(path)")
            case .unauthenticated: throw DomainError.unauthenticated
            case .forbidden(let message): throw DomainError.forbidden(message)
            case .alreadyExists(let path): throw DomainError.alreadyExists("File \(path)")
            }
        }
    }
}
