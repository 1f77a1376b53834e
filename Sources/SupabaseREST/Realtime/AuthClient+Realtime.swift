import Foundation

extension AuthClient {
    /// The access token after every sign-in, token refresh, user update and sign-out (`nil`),
    /// for ``RealtimeClientV2/setAuth(_:)`` — so joined channels switch to the new identity
    /// without being re-joined. The initial session is skipped: joins fetch the token anyway.
    var realtimeTokenChanges: AsyncStream<String?> {
        let events = authStateChanges
        return AsyncStream { continuation in
            let task = Task {
                for await (event, session) in events where event != .initialSession {
                    continuation.yield(session?.accessToken)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
