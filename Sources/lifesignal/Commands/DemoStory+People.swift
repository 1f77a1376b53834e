import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension DemoStory {
    static let bobPhone = "+15550002222"
    static let bobCode = "135790"

    /// Bob signs in and scans Alice's QR code: she becomes his dependent, he her responder.
    func link(alice: LocalAdapters) async throws -> LocalAdapters {
        let bob = LocalAdapters(backend: backend)
        let phone = try PhoneNumber(Self.bobPhone)
        try await bob.authClient.sendCode(phone)
        _ = try await bob.authClient.verifyCode(phone, try OneTimeCode(Self.bobCode))
        say("[\(time())] Bob, her neighbour, signs in on his phone too.")
        let code = try await alice.contactsClient.resetQRCode()
        let owner = try await bob.contactsClient.lookUpQRCode(code)
        say("           Alice shows her QR code; Bob scans it and sees \"\(owner.name)\".")
        let added = try await bob.contactsClient.addByQRCode(code, .dependent)
        let mirrored = try await alice.contactsClient.contacts().contacts
        say("           He adds her as his \(added.roles.names.joined(separator: " and ")); her list now shows Bob as her \(mirrored.first?.roles.names.joined(separator: " and ") ?? "?").")
        return bob
    }

    /// After the deadline: the sweep tells Bob, Bob pings, Alice answers and checks in; then
    /// SOS raised, answered and cancelled.
    func escalation(alice: LocalAdapters, bob: LocalAdapters) async throws {
        // Bob's phone listens for notifications, as the app does while open.
        let live = try await bob.notificationClient.stream()
        let report = try await backend.sweep.run(caller: .service)
        say("\n[\(time())] The server's sweep finds \(report.escalations) missed deadline and tells the responders.")
        guard let bobID = await bob.authClient.currentSession()?.userID, let aliceID = await alice.authClient.currentSession()?.userID else {
            throw DomainError.unauthenticated
        }
        guard let note = try await Self.first(.nonResponsiveDependent, in: live) else {
            throw DomainError.internal("Bob was not told within 5 s")
        }
        say("           Bob's phone, at once: \"\(note.title): \(note.body)\"")
        if let seen = try await bob.contactsClient.contacts().contacts.first {
            say("           On his Dependents screen Alice is \(seen.isNonResponsive ? "marked non-responsive" : "fine").")
        }
        _ = try await bob.pingClient.ping(aliceID)
        say("[\(time())] Bob pings her: \"Are you OK?\"")
        if let ping = try await alice.contactsClient.contacts().contacts.first?.incomingPingAt {
            say("           Alice sees the ping from Bob (sent \(time(ping))) and answers it.")
        }
        try await alice.pingClient.respond(bobID)
        clock.advance(by: 120)
        _ = try await alice.checkInClient.checkIn()
        let status = try await bob.contactsClient.contacts().contacts.first
        say("[\(time())] She checks in; Bob's screen shows her \(status?.isNonResponsive == true ? "still non-responsive" : "safe again"), no ping pending: \(status?.outgoingPingAt == nil).")

        clock.advance(by: 3600)
        let alert = try await alice.alertClient.trigger()
        say("\n[\(time())] Alice slips on the stairs and holds the SOS button: an alert is raised.")
        if let active = try await bob.alertClient.activeAlert(aliceID) {
            say("           Bob's phone shows her alert, active since \(time(active.activatedAt)).")
        }
        clock.advance(by: 60)
        let answered = try await bob.alertClient.respond(alert.id)
        say("[\(time(answered))] Bob answers: he is on his way. Alice's phone shows \(try await alice.alertClient.activeAlert(nil)?.responses.map(\.responderName).joined(separator: ", ") ?? "nobody") responding.")
        clock.advance(by: 600)
        try await alice.alertClient.cancel(alert.id)
        let gone = try await bob.alertClient.activeAlert(aliceID) == nil
        say("[\(time())] Bob has helped her up; Alice cancels the alert\(gone ? ", and Bob's phone clears it." : ".")")
    }

    /// The first notification of `type` on `stream`, or `nil` after 5 s (so the demo never
    /// hangs on a notification that does not come).
    static func first(_ type: NotificationType, in stream: AsyncThrowingStream<NotificationRecord, any Error>) async throws -> NotificationRecord? {
        try await withThrowingTaskGroup(of: NotificationRecord?.self) { group in
            group.addTask {
                for try await note in stream where note.type == type { return note }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
