import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("SOS alerts")
struct AlertsTests {
    @Test("triggering tells every responder (not dependents); a second trigger is refused", arguments: Engine.allCases)
    func trigger(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        let dan = try await test.person("+15550000004", "Dan")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        try await test.link(responder: ann, dependent: dan)
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-phone")
        let reply = try await test.call("trigger-alert", ann)
        #expect(reply["success"] as? Bool == true && reply["status"] as? String == "active")
        #expect(reply["activatedAt"] as? String == Timestamp.format(test.clock.now))
        #expect(try await test.notifications(bob, .alertActivatedReceived).first?.title == "ALERT: Ann Tester needs help!")
        #expect(try await test.notifications(cat, .alertActivatedReceived).count == 1)
        #expect(try await test.notifications(dan).filter { $0.type.category == .alerts }.isEmpty)
        #expect(try await test.notifications(ann, .alertActivatedSent).count == 1)
        #expect(await test.pushes?.messages(to: "bob-phone").map(\.data["type"]) == ["alert_activated_received"])
        await #expect(throws: DomainError.failedPrecondition("An alert is already active")) { try await test.backend.alerts.trigger(caller: ann) }
        #expect(try await test.count("alerts") == 1)
    }

    @Test("cancelling ends the alert and tells responders; with none active it is not found", arguments: Engine.allCases)
    func cancel(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        await #expect(throws: DomainError.notFound("Active alert")) { try await test.call("cancel-alert", ann) }
        let alert = try await test.backend.alerts.trigger(caller: ann)
        await #expect(throws: DomainError.notFound("Active alert")) { try await test.call("cancel-alert", ann, ["alertId": UUID().uuidString]) }
        await #expect(throws: DomainError.invalidArgument("alertId must be a UUID, not \"x\"")) { try await test.call("cancel-alert", ann, ["alertId": "x"]) }
        test.clock.advance(by: 60)
        let reply = try await test.call("cancel-alert", ann, ["alertId": alert.id.uuidString])
        #expect(reply["status"] as? String == "resolved" && reply["resolvedAt"] as? String == Timestamp.format(test.clock.now))
        #expect(try await test.notifications(bob, .alertCancelledReceived).count == 1)
        #expect(try await test.backend.alerts.activeAlert(caller: ann) == nil)
        let none = try await test.call("get-active-alert", ann)
        #expect(none["hasActiveAlert"] as? Bool == false && none["alertId"] == nil)
        await #expect(throws: DomainError.notFound("Active alert")) { try await test.backend.alerts.cancel(caller: ann) }
        // A new alert can follow.
        _ = try await test.backend.alerts.trigger(caller: ann)
        #expect(try await test.count("alerts") == 2)
    }

    @Test("responders acknowledge; the history keeps who and when; others are refused", arguments: Engine.allCases)
    func respond(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let eve = try await test.person("+15550000009", "Eve")
        try await test.link(responder: bob, dependent: ann)
        let alert = try await test.backend.alerts.trigger(caller: ann)
        test.clock.advance(by: 30)
        let reply = try await test.call("respond-to-alert", bob, ["alertId": alert.id.uuidString])
        #expect(reply["respondedAt"] as? String == Timestamp.format(test.clock.now))
        await #expect(throws: DomainError.alreadyExists("Your response to this alert")) {
            try await test.backend.alerts.respond(caller: bob, alertID: alert.id)
        }
        await #expect(throws: DomainError.forbidden("Only a responder of this person may respond to their alert")) {
            try await test.backend.alerts.respond(caller: eve, alertID: alert.id)
        }
        // Ann is Bob's dependent, not his responder: she cannot acknowledge her own alert either.
        await #expect(throws: DomainError.forbidden("Only a responder of this person may respond to their alert")) {
            try await test.backend.alerts.respond(caller: ann, alertID: alert.id)
        }
        let unknown = UUID()
        await #expect(throws: DomainError.notFound("Alert \(unknown)")) { try await test.backend.alerts.respond(caller: bob, alertID: unknown) }
        let seen = try #require(try await test.backend.alerts.activeAlert(caller: bob, of: ann.userID))
        #expect(seen.responses.map(\.responderID) == [bob.userID] && seen.responses.first?.respondedAt == test.clock.now)
        let active = try await test.call("get-active-alert", ann)
        #expect((active["responses"] as? [[String: Any]])?.first?["name"] as? String == "Bob Tester")
        await #expect(throws: DomainError.forbidden("Only a responder of this person may see their alerts")) {
            try await test.backend.alerts.activeAlert(caller: eve, of: ann.userID)
        }
        _ = try await test.backend.alerts.cancel(caller: ann)
        try await test.link(responder: eve, dependent: ann)
        await #expect(throws: DomainError.failedPrecondition("The alert is no longer active")) {
            try await test.backend.alerts.respond(caller: eve, alertID: alert.id)
        }
        #expect(try await test.backend.alerts.history(caller: ann).first?.responses.count == 1)
        #expect(try await test.count("alert_responses") == 1)
    }

    @Test("racing triggers raise exactly one alert", arguments: Engine.allCases)
    func racingTriggers(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let successes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 { group.addTask { (try? await test.backend.alerts.trigger(caller: ann)) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
        #expect(try await test.count("alerts") == 1)
        #expect(try await test.notifications(ann, .alertActivatedSent).count == 1)
    }

    @Test("through /rest/v1 a responder reads a dependent's alerts, strangers see nothing, nobody writes", arguments: Engine.allCases)
    func restPolicies(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let (annSession, bobSession, eveSession) = (
            try await test.signIn("+15550000001"), try await test.signIn("+15550000002"), try await test.signIn("+15550000009")
        )
        let (ann, bob) = (Caller.user(annSession.user.id), Caller.user(bobSession.user.id))
        try await test.link(responder: bob, dependent: ann)
        let alert = try await test.backend.alerts.trigger(caller: ann)
        _ = try await test.backend.alerts.respond(caller: bob, alertID: alert.id)
        let server = try await TestServer.start(test.backend)
        func rows(_ path: String, _ session: IssuedSession) async throws -> Int? {
            try await server.request("GET", "/rest/v1/\(path)", bearer: session.accessToken).jsonArray?.count
        }
        #expect(try await rows("alerts?select=id,status", annSession) == 1)
        #expect(try await rows("alerts?select=id,status", bobSession) == 1)
        #expect(try await rows("alerts?select=id", eveSession) == 0)
        #expect(try await rows("alert_responses?select=alert_id", annSession) == 1)
        #expect(try await rows("alert_responses?select=alert_id", eveSession) == 0)
        #expect(try await rows("contacts?select=contact_id,is_responder", bobSession) == 1)
        #expect(try await rows("contacts?select=contact_id", eveSession) == 0)
        #expect(try await rows("notifications?select=id", eveSession) == 0)
        #expect(try await rows("notifications?select=id,type", bobSession) == 2)
        let write = try await server.json(
            "POST", "/rest/v1/alerts", bearer: eveSession.accessToken,
            [
                "id": UUID().uuidString, "user_id": annSession.user.id.description, "status": "active", "activated_at": "2027-01-01T00:00:00Z",
            ])
        #expect(write.status == 401 || write.status == 403)
        let patch = try await server.json("PATCH", "/rest/v1/notifications?user_id=eq.\(bobSession.user.id)", bearer: bobSession.accessToken, ["is_read": true])
        #expect(patch.status == 401 || patch.status == 403)
        #expect(try await rows("push_tokens?select=token", bobSession) == nil)
        await server.stop()
        #expect(try await test.count("alerts") == 1)
    }
}
