import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Mark safe")
struct MarkSafeTests {
    @Test("a responder marks an SOS safe: it ends as marked_safe, everyone told and the person hear it; others are refused", arguments: Engine.allCases)
    func sos(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        let eve = try await test.person("+15550000009", "Eve")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        let alert = try await test.backend.alerts.trigger(caller: ann)
        await #expect(throws: DomainError.forbidden("Only a responder of this person may mark them safe")) {
            try await test.call("mark-safe", eve, ["alertId": alert.id.uuidString])
        }
        await #expect(throws: DomainError.forbidden("Only a responder of this person may mark them safe")) {
            try await test.backend.alerts.markSafe(caller: ann, alertID: alert.id)
        }
        await #expect(throws: DomainError.invalidArgument("alertId must be a UUID, not \"x\"")) { try await test.call("mark-safe", bob, ["alertId": "x"]) }
        let unknown = UUID()
        await #expect(throws: DomainError.notFound("Alert \(unknown)")) { try await test.backend.alerts.markSafe(caller: bob, alertID: unknown) }
        test.clock.advance(by: 60)
        let reply = try await test.call("mark-safe", bob, ["alertId": alert.id.uuidString])
        #expect(reply["status"] as? String == "resolved" && reply["resolution"] as? String == "marked_safe")
        #expect(reply["resolvedAt"] as? String == Timestamp.format(test.clock.now))
        let ended = try #require(try await test.backend.alerts.history(caller: ann).first)
        #expect(ended.resolution == .markedSafe && ended.resolvedBy == bob.userID && ended.status == .resolved)
        #expect(try await test.notifications(cat, .markedSafe).map(\.body) == ["Bob Tester confirmed Ann Tester is safe."])
        #expect(try await test.notifications(bob, .markedSafe).isEmpty)
        #expect(try await test.notifications(ann, .markedSafe).count == 1)
        #expect(try await test.notifications(eve).isEmpty)
        #expect(try await test.backend.alerts.activeAlert(caller: ann) == nil)
        await #expect(throws: DomainError.failedPrecondition("The alert is no longer active")) {
            try await test.backend.alerts.markSafe(caller: cat, alertID: alert.id)
        }
    }
}
