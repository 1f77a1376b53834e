import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Realtime and ended sessions over a real socket: a join or token refresh with a token of an
/// ended session is refused, and an open channel whose session ends is closed at the socket's
/// next heartbeat while other channels on the socket go on.
@Suite("/realtime/v1 and ended sessions")
struct AuthSessionRealtimeTests {
    static func join(_ socket: RealtimeTestSocket, topic: String, token: String, ref: String) async throws -> [String: any Sendable] {
        let binding: [String: any Sendable] = ["event": "*", "schema": "public", "table": "notifications"]
        try socket.send(
            topic: topic, event: "phx_join",
            payload: ["config": ["postgres_changes": [binding]] as [String: any Sendable], "access_token": token], ref: ref, joinRef: ref)
        let reply = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == ref })
        return try #require(reply["payload"] as? [String: any Sendable])
    }

    static func isSystemError(_ frame: [String: any Sendable], topic: String) -> Bool {
        frame["topic"] as? String == topic && frame["event"] as? String == "system"
            && (frame["payload"] as? [String: any Sendable])?["status"] as? String == "error"
    }

    @Test("a join with an ended session's token is refused; an open channel is closed at the next heartbeat, others stay", arguments: Engine.allCases)
    func channelsOfEndedSessions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ended = try await SessionSteps.signUp(server, "ada@example.org")
        let ada = try await SessionSteps.signIn(server, email: "ada@example.org")
        let bob = try await SessionSteps.signUp(server, "bob@example.org")
        #expect(try await server.request("POST", "/auth/v1/logout?scope=local", bearer: ended.access).status == 204)

        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        let refused = try await Self.join(socket, topic: "realtime:ended", token: ended.access, ref: "1")
        #expect(refused["status"] as? String == "error")
        #expect((refused["response"] as? [String: any Sendable])?["reason"] as? String == "Session from session_id claim in JWT does not exist")

        #expect(try await Self.join(socket, topic: "realtime:ada", token: ada.access, ref: "2")["status"] as? String == "ok")
        #expect(try await Self.join(socket, topic: "realtime:bob", token: bob.access, ref: "3")["status"] as? String == "ok")
        #expect(try await server.request("POST", "/auth/v1/logout", bearer: ada.access).status == 204)

        try socket.send(topic: "phoenix", event: "heartbeat", ref: "hb")
        let beat = try await socket.nextObject(where: { $0["ref"] as? String == "hb" })
        #expect((beat["payload"] as? [String: any Sendable])?["status"] as? String == "ok", "the heartbeat itself is answered")
        let notice = try await socket.nextObject(where: { Self.isSystemError($0, topic: "realtime:ada") })
        #expect((notice["payload"] as? [String: any Sendable])?["message"] as? String == "Session from session_id claim in JWT does not exist")
        let closed = try await socket.nextObject(where: { $0["topic"] as? String == "realtime:ada" })
        #expect(closed["event"] as? String == "phx_close")
        #expect(closed["join_ref"] as? String == "2")

        // Bob's channel on the same socket still receives his changes, and Ada's no longer exists.
        let row: [String: any Sendable] = [
            "user_id": bob.userID, "type": "system", "title": "still here", "body": "b",
            "created_at": Timestamp.format(test.clock.now),
        ]
        #expect(
            try await server.request(
                "POST", "/rest/v1/notifications", apiKey: .some(server.serviceKey), bearer: server.serviceKey,
                body: try JSONSerialization.data(withJSONObject: row)
            ).status == 201)
        let change = try await socket.nextObject(where: { $0["event"] as? String == "postgres_changes" })
        #expect(change["topic"] as? String == "realtime:bob")
        try socket.send(topic: "realtime:ada", event: "access_token", payload: ["access_token": ada.access], ref: "4", joinRef: "2")
        try socket.send(topic: "realtime:ada", event: "custom", ref: "5", joinRef: "2")
        let unmatched = try await socket.nextObject(where: { $0["ref"] as? String == "5" })
        #expect(((unmatched["payload"] as? [String: any Sendable])?["response"] as? [String: any Sendable])?["reason"] as? String == "unmatched topic")
        await socket.close()
    }

    @Test("a token refresh with an ended session's token closes the channel", arguments: Engine.allCases)
    func refreshWithEndedSession(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let live = try await SessionSteps.signUp(server, "ada@example.org")
        let ended = try await SessionSteps.signIn(server, email: "ada@example.org")
        #expect(try await server.request("POST", "/auth/v1/logout?scope=local", bearer: ended.access).status == 204)
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        #expect(try await Self.join(socket, topic: "realtime:ada", token: live.access, ref: "1")["status"] as? String == "ok")
        try socket.send(topic: "realtime:ada", event: "access_token", payload: ["access_token": ended.access], ref: "2", joinRef: "1")
        let notice = try await socket.nextObject(where: { Self.isSystemError($0, topic: "realtime:ada") })
        #expect((notice["payload"] as? [String: any Sendable])?["message"] as? String == "Session from session_id claim in JWT does not exist")
        let closed = try await socket.nextObject()
        #expect(closed["event"] as? String == "phx_close")
        await socket.close()
    }
}
