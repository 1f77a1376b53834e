import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalServer
import LifeSignalTestSupport
import Logging
import Testing

@Suite("Sweep on a timer")
struct SweepSchedulerTests {
    @Test("a running server escalates a missed deadline by itself, once", arguments: [Engine.sqlite])
    func escalatesOnItsOwn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let annCaller = Caller.user(ann.user.id), bobCaller = Caller.user(bob.user.id)
        // Bob becomes Ann's responder.
        let annProfile = try await test.backend.profiles.profile(caller: annCaller)
        _ = try await test.backend.contacts.addContact(caller: bobCaller, qrCodeID: annProfile.qrCodeID, roles: .dependent)
        _ = try await test.backend.checkIns.checkIn(caller: annCaller)
        test.clock.advance(by: 24 * 3600 + 1)

        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = try await LifeSignalHTTPServer.makeApplication(
            backend: test.backend, configuration: .init(port: 0, sweepInterval: .milliseconds(50)), logger: logger)
        let server = Task { try await app.run() }
        defer { server.cancel() }

        var escalated: [NotificationRecord] = []
        for _ in 0..<600 {  // a 30 s bound against a hang, not a speed check
            escalated = try await test.backend.notifications.notifications(caller: bobCaller, limit: 50)
                .filter { $0.type == .nonResponsiveDependent }
            if !escalated.isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(escalated.count == 1)
        // Several more ticks pass; the deadline is escalated once.
        try await Task.sleep(for: .milliseconds(300))
        let again = try await test.backend.notifications.notifications(caller: bobCaller, limit: 50).filter { $0.type == .nonResponsiveDependent }
        #expect(again.count == 1)
    }
}
