import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// Content editors for tests (docs/security.md, "Content"): a person whose `app_metadata.role`
/// is `"editor"`, which only the service role sets. Everyone else reads published content only
/// and writes none.
extension TestBackend {
    /// Signs `phone` in and makes them an editor as an operator would with the service role
    /// (the admin API's `app_metadata`), then refreshes the session so the access token
    /// carries the role.
    public func signInEditor(_ phone: String) async throws -> IssuedSession {
        let session = try await signIn(phone)
        guard try await backend.auth.updateAppMetadata(of: session.user.id, merging: #"{"role":"editor"}"#) != nil else {
            throw TestEnvironmentError(description: "no account for \(phone)")
        }
        return try await backend.auth.sessions.refresh(refreshToken: session.refreshToken)
    }
}

extension TestServer {
    /// Makes the person `userID` an editor over HTTP with the service key
    /// (`PUT /auth/v1/admin/users/<id>`, supabase-js `auth.admin.updateUserById`). Their next
    /// access token (a sign-in or a refresh) carries the role.
    public func makeEditor(_ userID: String) async throws {
        let reply = try await request(
            "PUT", "/auth/v1/admin/users/\(userID)", apiKey: .some(serviceKey), bearer: serviceKey,
            body: Data(#"{"app_metadata":{"role":"editor"}}"#.utf8))
        guard reply.status == 200 else {
            throw TestEnvironmentError(description: "making \(userID) an editor: \(reply.status) \(reply.text)")
        }
    }
}
