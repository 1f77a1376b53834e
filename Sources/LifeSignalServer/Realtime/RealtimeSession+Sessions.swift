import Foundation
import LifeSignalBackend

/// Realtime and ended sessions (docs/security.md, "Sessions"): a join or token refresh whose
/// token names a session that has ended is refused, and a channel whose session ends is
/// closed (`system` error, then `phx_close`) at the socket's next heartbeat — clients send one
/// every 25–30 s — with the session looked up at most ``AuthPolicy/sessionCheckStaleness``
/// earlier.
extension RealtimeSession {
    static let sessionEndedReason = "Session from session_id claim in JWT does not exist"

    /// Why a join or refresh with `claims` is refused for its session, or `nil` when it may go
    /// on. When the database cannot say, the join is refused too: it can be tried again.
    func sessionRefusal(_ claims: TokenClaims) async -> String? {
        do {
            return try await auth.sessions.isActive(claims) ? nil : Self.sessionEndedReason
        } catch {
            return "Could not check the session; try again"
        }
    }

    /// Closes this socket's channels whose session has ended. A channel the database cannot
    /// check now stays open (an outage must not drop every subscriber); the next heartbeat
    /// looks again.
    func closeEndedSessions() async {
        let signedIn = await hub.channels(of: connection.id).filter { $0.claims?.sessionID != nil }
        // Anonymous and service-role channels have no session: their heartbeat asks nothing.
        // The database check runs in a task of its own, as a join does (``inOwnTask(_:)``).
        guard !signedIn.isEmpty else { return }
        await Self.inOwnTask { await closeEnded(signedIn) }
    }

    private func closeEnded(_ channels: [RealtimeChannel]) async {
        var verdicts: [String: Bool] = [:]
        for channel in channels {
            guard let claims = channel.claims, let session = claims.sessionID else { continue }
            let active: Bool
            if let known = verdicts[session] {
                active = known
            } else {
                guard let checked = try? await auth.sessions.isActive(claims) else { continue }
                verdicts[session] = checked
                active = checked
            }
            if active { continue }
            await hub.leave(connection: connection.id, topic: channel.topic)
            connection.push(
                topic: channel.topic, event: "system",
                payloadJSON:
                    "{\"extension\":\"system\",\"message\":\(JSONRenderer.quote(Self.sessionEndedReason)),\"status\":\"error\"}")
            connection.push(topic: channel.topic, event: "phx_close", payloadJSON: "{}", joinRef: channel.joinRef)
        }
    }
}

/// A token refresh refused because its session has ended.
struct SessionEnded: Error {
    let reason: String
}
